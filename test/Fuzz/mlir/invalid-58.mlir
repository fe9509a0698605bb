func.func @conv_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<2x3x3x3xf32>) {
  %0 = dist.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x6x6xf32>
  return
}
