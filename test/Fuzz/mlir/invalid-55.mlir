func.func @reduce_twice(%a: tensor<4x3xf32>) {
  %0 = dist.reduce_sum %a {axes = array<i64: 1, -1>} : (tensor<4x3xf32>) -> tensor<4xf32>
  return
}
