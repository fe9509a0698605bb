func.func private @negative(tensor<4xf32, #dist.devices<[-1, 0]>>)
