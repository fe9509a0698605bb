dist.mesh @m shape = [4, 2] axes = ["dp", "tp"]
func.func @constraint(%x: tensor<4x4xf32>) {
  %0 = dist.sharding_constraint %x : tensor<4x4xf32> to #dist.sharding<@m, [["dp", "tp"], []], partial = []>
  return
}
