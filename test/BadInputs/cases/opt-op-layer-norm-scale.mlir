func.func @f(%x: tensor<4x8xf32>, %y: tensor<4611686018427387904xi1>, %img: tensor<1x2x8x8xf32>, %w: tensor<4x2x3x3xf32>, %big: tensor<4x2x9x9xf32>) {
  %s = dist.constant dense<1.0> : tensor<4xf32>
  %0 = dist.layer_norm %x, %s, %s {axis = -1, epsilon = 1.0e-5 : f64} : (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}
