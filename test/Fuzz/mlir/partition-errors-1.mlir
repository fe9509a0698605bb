dist.mesh @m shape = [4] axes = ["x"]
func.func @indivisible(%x: tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, [[], []]>}) -> (tensor<2x6xf32>, tensor<2x6xf32>) {
  %a, %b = dist.split %x {axis = 0 : i64, sizes = array<i64: 2, 2>, dist.shardings = [#dist.sharding<@m, [[], ["x"]]>, #dist.sharding<@m, [[], ["x"]]>]} : (tensor<4x6xf32>) -> (tensor<2x6xf32>, tensor<2x6xf32>)
  return %a, %b : tensor<2x6xf32>, tensor<2x6xf32>
}
