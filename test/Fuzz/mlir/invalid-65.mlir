func.func @reduce_scatter(%x: tensor<3xf32, #dist.devices<[0:2]>>) {
  %0 = dist.reduce_scatter %x sum dim 0 groups [[0, 1]] : tensor<3xf32, #dist.devices<[0:2]>> -> tensor<1xf32, #dist.devices<[0:2]>>
  return
}
