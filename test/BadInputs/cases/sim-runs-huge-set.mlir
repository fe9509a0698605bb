func.func @f(%p: tensor<4xf32, #dist.devices<[0:1048576]>>) -> tensor<4xf32, #dist.devices<[0:1048576]>> {
  %0 = dist.relu %p : (tensor<4xf32, #dist.devices<[0:1048576]>>) -> tensor<4xf32, #dist.devices<[0:1048576]>>
  return %0 : tensor<4xf32, #dist.devices<[0:1048576]>>
}
