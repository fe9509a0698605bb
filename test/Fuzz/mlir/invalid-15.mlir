dist.mesh @m shape = [2, 2] axes = ["dp", "tp"]
func.func private @rank(tensor<4x4xf32> {dist.sharding = #dist.sharding<@m, [["dp"]]>})
