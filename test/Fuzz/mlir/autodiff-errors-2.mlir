func.func @vector_loss(%w: tensor<4xf32> {dist.role = "parameter"}) -> tensor<4xf32> {
  %r = dist.relu %w : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
