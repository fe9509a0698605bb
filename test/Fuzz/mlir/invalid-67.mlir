func.func @send_sizes(%x: tensor<4xf32, #dist.devices<[0:2]>>) {
  %0 = dist.send %x to [2:5] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[2:5]>>
  return
}
