dist.mesh @m shape = [2, 4] axes = ["dp", "tp"]
func.func private @indivisible() -> (tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, [[], ["dp", "tp"]]>})
