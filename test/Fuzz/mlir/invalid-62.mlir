func.func @groups_not_partition(%x: tensor<4xf32, #dist.devices<[0:4]>>) {
  %0 = dist.all_reduce %x sum groups [[0, 1]] : tensor<4xf32, #dist.devices<[0:4]>> -> tensor<4xf32, #dist.devices<[0:4]>>
  return
}
