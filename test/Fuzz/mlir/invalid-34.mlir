func.func @softmax_axis(%a: tensor<4x3xf32>) {
  %0 = dist.softmax %a {axis = 2} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}
