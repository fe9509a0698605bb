func.func @f(%p: tensor<8x16xf32, #dist.devices<[0:4]>>) {
  %0 = dist.group_rank groups [[0, 5]] : tensor<i64, #dist.devices<[0:4]>>
  return
}
