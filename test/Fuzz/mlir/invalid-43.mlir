func.func @split(%a: tensor<4x3xf32>) {
  %0:2 = dist.split %a {axis = 0, sizes = array<i64: 2, 3>} : (tensor<4x3xf32>) -> (tensor<2x3xf32>, tensor<3x3xf32>)
  return
}
