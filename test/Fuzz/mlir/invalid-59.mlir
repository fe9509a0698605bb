func.func @pool_window(%x: tensor<1x4x2x2xf32>) {
  %0 = dist.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x2x2xf32>) -> tensor<1x4x1x1xf32>
  return
}
