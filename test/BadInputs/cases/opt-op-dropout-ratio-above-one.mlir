func.func @f(%x: tensor<4x8xf32>, %y: tensor<4611686018427387904xi1>, %img: tensor<1x2x8x8xf32>, %w: tensor<4x2x3x3xf32>, %big: tensor<4x2x9x9xf32>) {
  %0 = dist.dropout %x {ratio = 1.5 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}
