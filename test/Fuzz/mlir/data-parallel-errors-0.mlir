func.func @batch(%w: tensor<8x8xf32> {dist.name = "w", dist.role = "parameter"},
                 %x: tensor<6x8xf32> {dist.name = "input", dist.role = "data"}) -> tensor<6x8xf32> {
  %y = dist.matmul %x, %w : (tensor<6x8xf32>, tensor<8x8xf32>) -> tensor<6x8xf32>
  return %y : tensor<6x8xf32>
}
