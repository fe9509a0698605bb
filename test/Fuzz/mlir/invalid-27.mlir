func.func @mixed(%a: tensor<4xf32, #dist.devices<[0:2]>>, %b: tensor<4xf32>) {
  %0 = dist.add %a, %b : (tensor<4xf32, #dist.devices<[0:2]>>, tensor<4xf32>) -> tensor<4xf32, #dist.devices<[0:2]>>
  return
}
