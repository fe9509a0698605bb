// RUN: dist-opt %s -split-input-file --dist-propagate-sharding -verify-diagnostics

dist.mesh @m shape = [2] axes = ["x"]
func.func @unsplittable(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{cannot be split as its sharding says: the op needs this dimension whole on every device}}
  %r = dist.softmax %x {dist.sharding = #dist.sharding<@m, [[], ["x"]]>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

dist.mesh @m shape = [2] axes = ["x"]
func.func @callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @caller(%x: tensor<4xf32> {dist.sharding = #dist.sharding<@m, [["x"]]>}) -> tensor<4xf32> {
  // expected-error @+1 {{calls are not supported by sharding: inline first}}
  %r = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

dist.mesh @m shape = [2] axes = ["x"]
func.func @placed(%x: tensor<4xf32, #dist.devices<[0:2]>> {dist.sharding = #dist.sharding<@m, [["x"]]>}) -> tensor<4xf32, #dist.devices<[0:2]>> {
  // expected-error @+1 {{is already placed: sharding works on the unplaced program}}
  %r = dist.relu %x : (tensor<4xf32, #dist.devices<[0:2]>>) -> tensor<4xf32, #dist.devices<[0:2]>>
  return %r : tensor<4xf32, #dist.devices<[0:2]>>
}

// -----

dist.mesh @m shape = [2] axes = ["x"]
func.func @unknown_axis(%x: tensor<4x6xf32>) -> (tensor<4x2xf32>, tensor<4x4xf32>) {
  // expected-error @+1 {{result 0: mesh @m has no axis "y"}}
  %a, %b = dist.split %x {axis = 1 : i64, sizes = array<i64: 2, 4>, dist.shardings = [#dist.sharding<@m, [["y"], []]>, #dist.sharding<@m, [["x"], []]>]} : (tensor<4x6xf32>) -> (tensor<4x2xf32>, tensor<4x4xf32>)
  return %a, %b : tensor<4x2xf32>, tensor<4x4xf32>
}

// -----

dist.mesh @m shape = [2] axes = ["x"]
dist.mesh @n shape = [2] axes = ["x"]
func.func @two_meshes(%x: tensor<4xf32> {dist.sharding = #dist.sharding<@m, [["x"]]>}) -> tensor<4xf32> {
  // expected-error @+1 {{sharding names mesh @n but the function works on @m}}
  %c = dist.sharding_constraint %x : tensor<4xf32> to #dist.sharding<@n, [[]]>
  return %c : tensor<4xf32>
}

// -----

dist.mesh @m shape = [4] axes = ["x"]
func.func @indivisible(%x: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{result 0: sharding #dist.sharding<@m, [["x"]]> does not divide 'tensor<6xf32>'}}
  %a, %b = dist.split %x {axis = 0 : i64, sizes = array<i64: 6, 0>, dist.shardings = [#dist.sharding<@m, [["x"]]>, #dist.sharding<@m, [[]]>]} : (tensor<6xf32>) -> (tensor<6xf32>, tensor<0xf32>)
  return %a : tensor<6xf32>
}
