func.func @attention_rank(%q: tensor<2x8x16xf32>) {
  %0, %1 = dist.attention %q, %q, %q : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8xf32>)
  return
}
