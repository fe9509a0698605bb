func.func @f(%x: tensor<4x8xf32>, %y: tensor<4611686018427387904xi1>, %img: tensor<1x2x8x8xf32>, %w: tensor<4x2x3x3xf32>, %big: tensor<4x2x9x9xf32>) {
  %i = dist.constant dense<0> : tensor<2xi64>
  %b = dist.constant dense<0> : tensor<i64>
  %0 = dist.one_hot %i, %b {depth = -3, element_type = f32} : (tensor<2xi64>, tensor<i64>) -> tensor<2x3xf32>
  return
}
