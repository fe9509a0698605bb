func.func @mse(%a: tensor<4x3xf32>, %b: tensor<3x4xf32>) {
  %0 = dist.mse_loss %a, %b : (tensor<4x3xf32>, tensor<3x4xf32>) -> tensor<f32>
  return
}
