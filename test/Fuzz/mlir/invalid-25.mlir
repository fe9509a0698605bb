func.func private @bad_name(tensor<4xf32> {dist.name = 3})
