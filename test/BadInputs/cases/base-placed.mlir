dist.mesh @mesh shape = [2] axes = ["dp"]
func.func @main(%x: tensor<4x16xf32, #dist.devices<[0:2]>>, %w: tensor<16x16xf32, #dist.devices<[0:2]>>) -> tensor<4x16xf32, #dist.devices<[0:2]>> {
  %0 = dist.matmul %x, %w : (tensor<4x16xf32, #dist.devices<[0:2]>>, tensor<16x16xf32, #dist.devices<[0:2]>>) -> tensor<4x16xf32, #dist.devices<[0:2]>>
  return %0 : tensor<4x16xf32, #dist.devices<[0:2]>>
}
