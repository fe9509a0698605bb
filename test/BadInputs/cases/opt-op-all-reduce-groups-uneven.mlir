func.func @f(%p: tensor<8x16xf32, #dist.devices<[0:4]>>) {
  %0 = dist.all_reduce %p sum groups [[0], [1, 2, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<8x16xf32, #dist.devices<[0:4]>>
  return
}
