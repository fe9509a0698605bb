func.func @dynamic_result(%w: tensor<8x4xf32> {dist.role = "parameter"}, %x: tensor<2x8xf32>) -> tensor<f32> {
  %h = dist.matmul %x, %w : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
  %s = dist.reduce_sum %h {axes = array<i64: 0, 1>} : (tensor<?x4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
