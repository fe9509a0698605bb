// Partitioning beyond matmuls: means over split dims are rescaled, splits
// appear (reduce_scatter avg of replicated data), move between dims
// (all_to_all), outputs may be annotated partial, and attributes that hold
// global shapes (constants, slices, expands, reshapes) become local. Every
// function is checked against its unpartitioned self with dist-run.

// RUN: dist-opt %s --dist-propagate-sharding --dist-partition | FileCheck %s
// RUN: dist-opt %s --dist-propagate-sharding --dist-partition -o %t
// RUN: dist-run %t --reference %s --entry mean --seed 1 | FileCheck %s --check-prefix=EXEC
// RUN: dist-run %t --reference %s --entry slice_replicated --seed 2 | FileCheck %s --check-prefix=EXEC
// RUN: dist-run %t --reference %s --entry move_split --seed 3 | FileCheck %s --check-prefix=EXEC
// RUN: dist-run %t --reference %s --entry make_partial --seed 4 | FileCheck %s --check-prefix=EXEC
// RUN: dist-run %t --reference %s --entry loss --seed 5 | FileCheck %s --check-prefix=EXEC
// RUN: dist-run %t --reference %s --entry shapes --seed 6 | FileCheck %s --check-prefix=EXEC

// EXEC: overall: {{.*}}: PASS

// CHECK-LABEL: func.func @mean(
// CHECK: %[[M:.*]] = dist.reduce_mean {{.*}} partial = ["a"]>} : (tensor<4x6xf32
// CHECK: %[[HALF:.*]] = dist.constant dense<5.000000e-01> : tensor<f32> on [0:4]
// CHECK: %[[S:.*]] = dist.mul %[[M]], %[[HALF]]
// CHECK: %[[R:.*]] = dist.all_reduce %[[S]] sum groups {{\[\[}}0, 2], [1, 3]]
// CHECK: return %[[R]]

// CHECK-LABEL: func.func @slice_replicated(
// CHECK: dist.reduce_scatter %arg0 avg dim 0 groups {{\[\[}}0:2], [2:4]] : tensor<8x6xf32, {{.*}}> -> tensor<4x6xf32

// CHECK-LABEL: func.func @move_split(
// CHECK: dist.all_to_all %arg0 split_dim 1 concat_dim 0 groups {{\[\[}}0, 2], [1, 3]] : tensor<4x6xf32, {{.*}}> -> tensor<8x3xf32

// CHECK-LABEL: func.func @make_partial(
// CHECK: %[[E:.*]] = dist.exp
// CHECK: %[[HALF:.*]] = dist.constant dense<5.000000e-01>
// CHECK: %[[P:.*]] = dist.mul %[[E]], %[[HALF]]
// CHECK: return %[[P]]

// The labels follow the logits' batch split; the mean over 4 shards is
// scaled by 1/4 and summed over all of them.
// CHECK-LABEL: func.func @loss(
// CHECK-SAME: tensor<2xi64, #dist.devices<[0:4]>> {dist.bound = 5 : i64, dist.sharding = #dist.sharding<@m, {{\[\[}}"a", "b"]]>}
// CHECK: dist.constant dense<2.500000e-01>
// CHECK: dist.all_reduce {{.*}} groups {{\[\[}}0:4]]

// CHECK-LABEL: func.func @shapes(
// CHECK: dist.constant dense<2.000000e+00> : tensor<2x6xf32> on [0:4]
// CHECK: dist.slice {{.*}} limits = array<i64: 2, 3>
// CHECK: dist.expand {{.*}} shape = array<i64: 2, 2, 2>
// CHECK: dist.reshape {{.*}} shape = array<i64: 1, 2, 6>

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
