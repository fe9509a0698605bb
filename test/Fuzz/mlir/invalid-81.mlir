func.func @attention_offset(%q: tensor<2x4x8x16xf32>) {
  %0, %1 = dist.attention %q, %q, %q {dropout_ratio = 0.1 : f64, reference_shape = array<i64: 4, 4, 8, 8>, reference_offset = array<i64: 3, 0, 0, 0>} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  return
}
