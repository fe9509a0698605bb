dist.mesh @m shape = [2] axes = ["x"]
func.func @unsplittable(%x: tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, [[], []]>}) -> tensor<4x6xf32> {
  %r = dist.softmax %x {dist.sharding = #dist.sharding<@m, [[], ["x"]]>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
