func.func @reshape_count(%a: tensor<4x3xf32>) {
  %0 = dist.reshape %a {shape = array<i64: 5, 2>} : (tensor<4x3xf32>) -> tensor<5x2xf32>
  return
}
