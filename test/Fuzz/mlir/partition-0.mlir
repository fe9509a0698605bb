dist.mesh @m shape = [2, 2] axes = ["a", "b"]

func.func @mean(%x: tensor<8x6xf32> {dist.sharding = #dist.sharding<@m, [["a"], []]>}) -> tensor<6xf32> {
  %r = dist.reduce_mean %x {axes = array<i64: 0>} : (tensor<8x6xf32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

func.func @slice_replicated(%x: tensor<8x6xf32> {dist.sharding = #dist.sharding<@m, [[], []]>})
    -> (tensor<8x6xf32> {dist.sharding = #dist.sharding<@m, [["b"], []]>}) {
  %r = dist.exp %x : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

func.func @move_split(%x: tensor<8x6xf32> {dist.sharding = #dist.sharding<@m, [["a"], []]>})
    -> (tensor<8x6xf32> {dist.sharding = #dist.sharding<@m, [[], ["a"]]>}) {
  %c = dist.sharding_constraint %x : tensor<8x6xf32> to #dist.sharding<@m, [[], ["a"]]>
  %r = dist.exp %c : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

func.func @make_partial(%x: tensor<8x6xf32> {dist.sharding = #dist.sharding<@m, [[], []]>})
    -> (tensor<8x6xf32> {dist.sharding = #dist.sharding<@m, [[], []], partial = ["b"]>}) {
  %r = dist.exp %x : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

func.func @loss(%logits: tensor<8x5xf32> {dist.sharding = #dist.sharding<@m, [["a", "b"], []]>},
                %labels: tensor<8xi64> {dist.bound = 5 : i64}) -> tensor<f32> {
  %l = dist.cross_entropy %logits, %labels : (tensor<8x5xf32>, tensor<8xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func @shapes(%x: tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, [["a"], []]>}) -> tensor<2x2x6xf32> {
  %c = dist.constant dense<2.0> : tensor<4x6xf32>
  %y = dist.mul %x, %c : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %s = dist.slice %y {starts = array<i64: 0, 1>, limits = array<i64: 4, 3>, strides = array<i64: 1, 1>} : (tensor<4x6xf32>) -> tensor<4x2xf32>
  %e = dist.expand %s {shape = array<i64: 2, 4, 2>} : (tensor<4x2xf32>) -> tensor<2x4x2xf32>
  %r = dist.reshape %y {shape = array<i64: 2, 2, 6>} : (tensor<4x6xf32>) -> tensor<2x2x6xf32>
  return %r : tensor<2x2x6xf32>
}
