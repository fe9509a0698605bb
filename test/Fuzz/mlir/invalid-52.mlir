func.func @take(%a: tensor<4x3xf32>, %i: tensor<2xi64>) {
  %0 = dist.take %a, %i {axis = 2} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
  return
}
