func.func @cross_entropy(%a: tensor<4x3xf32>, %l: tensor<3xi64>) {
  %0 = dist.cross_entropy %a, %l : (tensor<4x3xf32>, tensor<3xi64>) -> tensor<f32>
  return
}
