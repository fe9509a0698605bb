dist.mesh @m shape = [2] axes = ["x"]
func.func @group_outside_mesh(%x: tensor<4xf32, #dist.devices<[0:2]>>) attributes {dist.mesh = @m} {
  %0 = dist.send %x to [2:4] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[2:4]>>
  return
}
