func.func @reshape_two_unknown(%a: tensor<4x3xf32>) {
  %0 = dist.reshape %a {shape = array<i64: -1, -1>} : (tensor<4x3xf32>) -> tensor<12x1xf32>
  return
}
