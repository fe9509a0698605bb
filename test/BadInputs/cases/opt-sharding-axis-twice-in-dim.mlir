dist.mesh @m shape = [2, 2] axes = ["dp", "tp"]
func.func @f(%x: tensor<8x8xf32> {dist.sharding = #dist.sharding<@m, [["dp", "dp"], []]>}) {
  return
}
