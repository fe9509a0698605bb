func.func @layer_norm(%a: tensor<4x3xf32>, %s: tensor<4xf32>) {
  %0 = dist.layer_norm %a, %s, %s : (tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return
}
