func.func @dynamic_input(%w: tensor<8x4xf32> {dist.role = "parameter"}, %x: tensor<?x8xf32>) -> tensor<f32> {
  %h = dist.matmul %x, %w : (tensor<?x8xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
  %s = dist.reduce_sum %h {axes = array<i64: 0, 1>} : (tensor<?x4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
