// RUN: dist-opt %s -split-input-file --dist-partition -verify-diagnostics

dist.mesh @m shape = [2] axes = ["x"]
func.func @not_propagated(%x: tensor<4xf32> {dist.sharding = #dist.sharding<@m, [["x"]]>}) -> tensor<4xf32> {
  // expected-error @+1 {{has no result sharding: run dist-propagate-sharding first}}
  %r = dist.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A sharding that does not divide a dimension is never truncated.
dist.mesh @m shape = [4] axes = ["x"]
func.func @indivisible(%x: tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, [[], []]>}) -> (tensor<2x6xf32>, tensor<2x6xf32>) {
  // expected-error @+1 {{cannot be split as its sharding says: dimension 1 of size 6 is not divisible into 4 shards}}
  %a, %b = dist.split %x {axis = 0 : i64, sizes = array<i64: 2, 2>, dist.shardings = [#dist.sharding<@m, [[], ["x"]]>, #dist.sharding<@m, [[], ["x"]]>]} : (tensor<4x6xf32>) -> (tensor<2x6xf32>, tensor<2x6xf32>)
  return %a, %b : tensor<2x6xf32>, tensor<2x6xf32>
}

// -----

dist.mesh @m shape = [2] axes = ["x"]
func.func @unsplittable(%x: tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, [[], []]>}) -> tensor<4x6xf32> {
  // expected-error @+1 {{cannot be split as its sharding says: the op needs this dimension whole on every device}}
  %r = dist.softmax %x {dist.sharding = #dist.sharding<@m, [[], ["x"]]>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

dist.mesh @m shape = [2] axes = ["x"]
func.func @partial_integer(%x: tensor<4xi64> {dist.sharding = #dist.sharding<@m, [[]]>})
    -> (tensor<4xi64> {dist.sharding = #dist.sharding<@m, [[]], partial = ["x"]>}) {
  // expected-error @+1 {{'func.return' op needs a partial sum of a non-float value}}
  return %x : tensor<4xi64>
}

