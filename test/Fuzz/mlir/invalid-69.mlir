func.func @broadcast_roots(%x: tensor<4xf32, #dist.devices<[0:4]>>) {
  %0 = dist.broadcast %x root 0 groups [[0, 1], [2, 3]] : tensor<4xf32, #dist.devices<[0:4]>> -> tensor<4xf32, #dist.devices<[0:4]>>
  return
}
