func.func @unequal_groups(%x: tensor<4xf32, #dist.devices<[0:3]>>) {
  %0 = dist.all_reduce %x sum groups [[0, 1], [2]] : tensor<4xf32, #dist.devices<[0:3]>> -> tensor<4xf32, #dist.devices<[0:3]>>
  return
}
