func.func @f(%p: tensor<8x16xf32, #dist.devices<[0:4]>>) {
  %0 = dist.send %p to [4:8] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<8x8xf32, #dist.devices<[4:8]>>
  return
}
