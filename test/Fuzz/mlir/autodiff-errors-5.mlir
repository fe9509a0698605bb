func.func @already_trained(%w: tensor<4xf32> {dist.role = "parameter"}, %m: tensor<4xf32> {dist.role = "optimizer_state"}) -> tensor<f32> {
  %s = dist.reduce_sum %w {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
