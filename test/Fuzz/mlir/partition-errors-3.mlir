dist.mesh @m shape = [2] axes = ["x"]
func.func @partial_integer(%x: tensor<4xi64> {dist.sharding = #dist.sharding<@m, [[]]>})
    -> (tensor<4xi64> {dist.sharding = #dist.sharding<@m, [[]], partial = ["x"]>}) {
  return %x : tensor<4xi64>
}
