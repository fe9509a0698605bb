func.func @f(%p: tensor<8x16xf32, #dist.devices<[0:4]>>) {
  %0 = dist.relu %p : (tensor<8x16xf32, #dist.devices<[0:4]>>) -> tensor<8x16xf32, #dist.devices<[0:2]>>
  return
}
