func.func @take_float_indices(%a: tensor<4x3xf32>, %i: tensor<2xf32>) {
  %0 = dist.take %a, %i : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}
