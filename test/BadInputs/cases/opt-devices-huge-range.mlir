func.func private @f(tensor<4xf32, #dist.devices<[0:4611686018427387904]>>)
