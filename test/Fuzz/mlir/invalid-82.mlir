func.func @attention_grad_lse(%q: tensor<2x4x8x16xf32>, %lse: tensor<2x4xf32>) {
  %0, %1, %2 = dist.attention_grad %q, %q, %q, %q, %lse, %q : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>)
  return
}
