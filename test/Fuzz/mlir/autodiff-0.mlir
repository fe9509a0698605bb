func.func @linear(%w: tensor<4x3xf32> {dist.name = "w", dist.role = "parameter"},
                  %b: tensor<3xf32> {dist.name = "b", dist.role = "parameter"},
                  %x: tensor<2x4xf32> {dist.name = "x", dist.role = "data"},
                  %t: tensor<2x3xf32> {dist.name = "t", dist.role = "data"}) -> tensor<f32> {
  %h = dist.matmul %x, %w {dist.layer = 0 : i64} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = dist.add %h, %b {dist.layer = 0 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %z = dist.tanh %y {dist.layer = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = dist.mul %z, %y {dist.layer = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %l = dist.mse_loss %s, %t {dist.layer = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
