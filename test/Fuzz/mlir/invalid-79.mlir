func.func @attention_ratio(%q: tensor<2x4x8x16xf32>) {
  %0, %1 = dist.attention %q, %q, %q {dropout_ratio = 1.0 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  return
}
