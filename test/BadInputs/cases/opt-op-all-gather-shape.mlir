func.func @f(%p: tensor<8x16xf32, #dist.devices<[0:4]>>) {
  %0 = dist.all_gather %p groups [[0:4]] axis 0 : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<8x16xf32, #dist.devices<[0:4]>>
  return
}
