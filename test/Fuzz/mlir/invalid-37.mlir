func.func @transpose(%a: tensor<4x3xf32>) {
  %0 = dist.transpose %a {permutation = array<i64: 0, 0>} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}
