dist.mesh @m shape = [2] axes = ["x"]
func.func @outside_mesh(%x: tensor<4xf32, #dist.devices<[0, 5]>>) attributes {dist.mesh = @m} {
  return
}
