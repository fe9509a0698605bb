func.func private @f(tensor<4xf32, #dist.devices<[0:9223372036854775807]>>)
