func.func private @negative_start(tensor<4xf32, #dist.devices<[-5:3]>>)
