func.func @backward_ops(%w: tensor<4xf32> {dist.role = "parameter"}) -> tensor<f32> {
  %s = dist.reduce_sum %w {axes = array<i64: 0>, dist.phase = "backward"} : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
