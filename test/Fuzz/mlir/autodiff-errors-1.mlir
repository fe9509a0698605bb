func.func @two_losses(%w: tensor<4xf32> {dist.role = "parameter"}) -> (tensor<f32> {dist.role = "loss"}, tensor<f32> {dist.role = "loss"}) {
  %s = dist.reduce_sum %w {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %s, %s : tensor<f32>, tensor<f32>
}
