func.func @element_types(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  %0 = dist.mul %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}
