func.func @all_to_all(%x: tensor<3x4xf32, #dist.devices<[0:2]>>) {
  %0 = dist.all_to_all %x split_dim 0 concat_dim 1 groups [[0, 1]] : tensor<3x4xf32, #dist.devices<[0:2]>> -> tensor<1x8xf32, #dist.devices<[0:2]>>
  return
}
