func.func private @bad_role(tensor<4xf32> {dist.role = "weights"})
