func.func @groups_too_many(%x: tensor<4xf32, #dist.devices<[0:4]>>) {
  %0 = dist.all_reduce %x sum groups [[0:1048576], [1048576:2097152]] : tensor<4xf32, #dist.devices<[0:4]>> -> tensor<4xf32, #dist.devices<[0:4]>>
  return
}
