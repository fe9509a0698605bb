func.func @no_parameters(%x: tensor<4xf32>) -> tensor<f32> {
  %s = dist.reduce_sum %x {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
