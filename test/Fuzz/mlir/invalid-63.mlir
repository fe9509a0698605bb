func.func @all_gather_type(%x: tensor<4xf32, #dist.devices<[0:2]>>) {
  %0 = dist.all_gather %x dim 0 groups [[0, 1]] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[0:2]>>
  return
}
