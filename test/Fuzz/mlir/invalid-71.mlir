func.func @gather_result(%x: tensor<4xf32, #dist.devices<[0:4]>>) {
  %0 = dist.gather %x root 0 dim 0 groups [[0, 1], [2, 3]] : tensor<4xf32, #dist.devices<[0:4]>> -> tensor<8xf32, #dist.devices<[0:4]>>
  return
}
