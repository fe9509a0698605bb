func.func @concat(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) {
  %0 = dist.concat %a, %b {axis = 0} : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<8x3xf32>
  return
}
