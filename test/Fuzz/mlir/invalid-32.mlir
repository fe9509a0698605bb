func.func @broadcast(%a: tensor<4x3xf32>, %b: tensor<2xf32>) {
  %0 = dist.add %a, %b : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<4x3xf32>
  return
}
