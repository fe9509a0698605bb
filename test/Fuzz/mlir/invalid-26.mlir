func.func @different_sets(%a: tensor<4xf32, #dist.devices<[0:2]>>, %b: tensor<4xf32, #dist.devices<[2:4]>>) {
  %0 = dist.add %a, %b : (tensor<4xf32, #dist.devices<[0:2]>>, tensor<4xf32, #dist.devices<[2:4]>>) -> tensor<4xf32, #dist.devices<[0:2]>>
  return
}
