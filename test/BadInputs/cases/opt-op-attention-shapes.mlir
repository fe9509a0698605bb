func.func @f(%x: tensor<4x8xf32>, %y: tensor<4611686018427387904xi1>, %img: tensor<1x2x8x8xf32>, %w: tensor<4x2x3x3xf32>, %big: tensor<4x2x9x9xf32>) {
  %q = dist.constant dense<1.0> : tensor<2x4x8x16xf32>
  %k = dist.constant dense<1.0> : tensor<2x4x8x8xf32>
  %0, %1 = dist.attention %q, %k, %q {scale = 0.25 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  return
}
