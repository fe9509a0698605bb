func.func @split_overflow(%a: tensor<2xf32>) {
  %0:3 = dist.split %a {axis = 0, sizes = array<i64: 9223372036854775807, 9223372036854775807, 4>} : (tensor<2xf32>) -> (tensor<9223372036854775807xf32>, tensor<9223372036854775807xf32>, tensor<4xf32>)
  return
}
