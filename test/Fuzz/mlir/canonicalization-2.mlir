func.func @send(%x: tensor<4xf32, #dist.devices<[0:2]>>) -> (tensor<4xf32, #dist.devices<[0:2]>>, tensor<4xf32, #dist.devices<[2:4]>>) {
  %0 = dist.send %x to [0:2] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[0:2]>>
  %1 = dist.send %x to [2:4] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[2:4]>>
  return %0, %1 : tensor<4xf32, #dist.devices<[0:2]>>, tensor<4xf32, #dist.devices<[2:4]>>
}
