func.func @attention_head_dim(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x8x8xf32>) {
  %0, %1 = dist.attention %q, %k, %q : (tensor<2x4x8x16xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  return
}
