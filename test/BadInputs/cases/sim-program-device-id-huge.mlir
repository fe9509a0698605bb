func.func @main(%x: tensor<4x16xf32, #dist.devices<[1048574:1048576]>>, %w: tensor<16x16xf32, #dist.devices<[1048574:1048576]>>) -> tensor<4x16xf32, #dist.devices<[1048574:1048576]>> {
  %0 = dist.matmul %x, %w : (tensor<4x16xf32, #dist.devices<[1048574:1048576]>>, tensor<16x16xf32, #dist.devices<[1048574:1048576]>>) -> tensor<4x16xf32, #dist.devices<[1048574:1048576]>>
  return %0 : tensor<4x16xf32, #dist.devices<[1048574:1048576]>>
}
