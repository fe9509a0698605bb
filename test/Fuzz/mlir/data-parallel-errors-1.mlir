func.func @roles(%w: tensor<8x8xf32>, %x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %y = dist.matmul %x, %w : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
