func.func @repeated_device(%x: tensor<4xf32, #dist.devices<[0:2]>>) {
  %0 = dist.all_reduce %x sum groups [[0, 1], [1, 0]] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[0:2]>>
  return
}
