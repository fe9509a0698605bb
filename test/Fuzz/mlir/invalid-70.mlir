func.func @root_range(%x: tensor<4xf32, #dist.devices<[0:4]>>) {
  %0 = dist.reduce %x sum root 2 groups [[0, 1], [2, 3]] : tensor<4xf32, #dist.devices<[0:4]>> -> tensor<4xf32, #dist.devices<[0, 2]>>
  return
}
