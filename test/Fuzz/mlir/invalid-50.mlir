func.func @reshape_overflow(%a: tensor<4xf32>) {
  %0 = dist.reshape %a {shape = array<i64: 4294967296, 4294967296>} : (tensor<4xf32>) -> tensor<4294967296x4294967296xf32>
  return
}
