dist.mesh @m shape = [2] axes = ["x"]
func.func @not_propagated(%x: tensor<4xf32> {dist.sharding = #dist.sharding<@m, [["x"]]>}) -> tensor<4xf32> {
  %r = dist.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
