// The unsplit program: a two-layer MLP with a mean squared error.
func.func @main(%x: tensor<4x8xf32> {dist.name = "x"}, %w1: tensor<8x6xf32> {dist.name = "w1"},
                %w2: tensor<6x8xf32> {dist.name = "w2"}, %target: tensor<4x8xf32> {dist.name = "target"})
    -> (tensor<4x8xf32> {dist.name = "y"}, tensor<f32> {dist.name = "loss"}) {
  %h = dist.matmul %x, %w1 : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %r = dist.relu %h : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %y = dist.matmul %r, %w2 : (tensor<4x6xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
  %loss = dist.mse_loss %y, %target : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return %y, %loss : tensor<4x8xf32>, tensor<f32>
}
