func.func @second_order(%w: tensor<4xf32> {dist.role = "parameter"}, %x: tensor<4xf32>) -> tensor<f32> {
  %g = dist.gelu_grad %w, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = dist.reduce_sum %g {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
