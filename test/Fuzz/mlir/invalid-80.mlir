func.func @attention_sequence_block(%q: tensor<2x4x8x16xf32>, %b: tensor<i64>) {
  %0, %1 = dist.attention %q, %q, %q, %b {dropout_ratio = 0.1 : f64, block_dims = array<i64: 2>, block_sizes = array<i64: 8>} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<i64>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  return
}
