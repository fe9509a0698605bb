func.func @all_gather_dim(%x: tensor<4xf32, #dist.devices<[0:2]>>) {
  %0 = dist.all_gather %x dim 1 groups [[0, 1]] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[0:2]>>
  return
}
