func.func @causal(%a: tensor<4x3xf32>) {
  %0 = dist.softmax %a {axis = 0, causal} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}
