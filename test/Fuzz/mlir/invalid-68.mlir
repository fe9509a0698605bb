func.func @send_target(%x: tensor<4xf32, #dist.devices<[0:2]>>) {
  %0 = dist.send %x to [2:4] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[4:6]>>
  return
}
