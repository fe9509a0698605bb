func.func private @range_to_max(tensor<4xf32, #dist.devices<[4611686018427387904:9223372036854775807]>>)
