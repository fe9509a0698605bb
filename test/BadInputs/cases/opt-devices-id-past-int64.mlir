func.func private @f(tensor<4xf32, #dist.devices<[9223372036854775808]>>)
