dist.mesh @m shape = [2] axes = ["x"]
func.func @constraint_shape(%x: tensor<3x4xf32>) {
  %0 = dist.sharding_constraint %x : tensor<3x4xf32> to #dist.sharding<@m, [["x"], []]>
  return
}
