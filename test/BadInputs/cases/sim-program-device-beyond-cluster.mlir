dist.mesh @mesh shape = [16] axes = ["dp"]
func.func @main(%x: tensor<4x16xf32, #dist.devices<[0:16]>>, %w: tensor<16x16xf32, #dist.devices<[0:16]>>) -> tensor<4x16xf32, #dist.devices<[0:16]>> {
  %0 = dist.matmul %x, %w : (tensor<4x16xf32, #dist.devices<[0:16]>>, tensor<16x16xf32, #dist.devices<[0:16]>>) -> tensor<4x16xf32, #dist.devices<[0:16]>>
  return %0 : tensor<4x16xf32, #dist.devices<[0:16]>>
}
