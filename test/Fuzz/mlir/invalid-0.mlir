func.func private @unsorted(tensor<4xf32, #dist.devices<[1, 0]>>)
