// RUN: dist-opt %s -split-input-file --dist-propagate-sharding | FileCheck %s

// Forward: the split of the data argument reaches every op; the unannotated
// weight is what the matmul needs of it: replicated.
dist.mesh @m shape = [2] axes = ["dp"]
// CHECK-LABEL: func.func @forward_from_input(
// CHECK-SAME: {dist.sharding = #dist.sharding<@m, {{\[\[}}"dp"], []]>}
// CHECK-SAME: {dist.sharding = #dist.sharding<@m, {{\[\[}}], []]>}
// CHECK-SAME: -> (tensor<8x32xf32> {dist.sharding = #dist.sharding<@m, {{\[\[}}"dp"], []]>})
// CHECK-SAME: attributes {dist.mesh = @m}
// CHECK: dist.matmul {{.*}} {dist.sharding = #dist.sharding<@m, {{\[\[}}"dp"], []]>}
// CHECK: dist.relu {{.*}} {dist.sharding = #dist.sharding<@m, {{\[\[}}"dp"], []]>}
func.func @forward_from_input(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@m, [["dp"], []]>},
                              %w: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %h = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %r = dist.relu %h : (tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// Backward (pjit's out_axis_resources): only the output is annotated; the
// inputs get what produces it without communication.
dist.mesh @m shape = [2, 2] axes = ["a", "b"]
// CHECK-LABEL: func.func @backward_from_result(
// CHECK-SAME: %arg0: tensor<8x16xf32> {dist.sharding = #dist.sharding<@m, {{\[\[}}"a"], []]>}
// CHECK-SAME: %arg1: tensor<16x32xf32> {dist.sharding = #dist.sharding<@m, {{\[\[}}], ["b"]]>}
// CHECK: dist.matmul {{.*}} {dist.sharding = #dist.sharding<@m, {{\[\[}}"a"], ["b"]]>}
// CHECK: dist.tanh {{.*}} {dist.sharding = #dist.sharding<@m, {{\[\[}}"a"], ["b"]]>}
func.func @backward_from_result(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>)
    -> (tensor<8x32xf32> {dist.sharding = #dist.sharding<@m, [["a"], ["b"]]>}) {
  %h = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %t = dist.tanh %h : (tensor<8x32xf32>) -> tensor<8x32xf32>
  return %t : tensor<8x32xf32>
}

// -----

// with_sharding_constraint in the middle decides both sides.
dist.mesh @m shape = [4] axes = ["x"]
// CHECK-LABEL: func.func @constraint(
// CHECK-SAME: %arg0: tensor<8x8xf32> {dist.sharding = #dist.sharding<@m, {{\[\[}}], ["x"]]>}
// CHECK: dist.relu {{.*}} {dist.sharding = #dist.sharding<@m, {{\[\[}}], ["x"]]>}
// CHECK: dist.sharding_constraint {{.*}} to #dist.sharding<@m, {{\[\[}}], ["x"]]>
// CHECK: dist.exp {{.*}} {dist.sharding = #dist.sharding<@m, {{\[\[}}], ["x"]]>}
func.func @constraint(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = dist.relu %x : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %c = dist.sharding_constraint %r : tensor<8x8xf32> to #dist.sharding<@m, [[], ["x"]]>
  %e = dist.exp %c : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %e : tensor<8x8xf32>
}

// -----

// A result sharding written on an op before propagation is honoured.
dist.mesh @m shape = [2] axes = ["x"]
// CHECK-LABEL: func.func @op_annotation(
// CHECK-SAME: %arg0: tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, {{\[\[}}"x"], []]>}
// CHECK: dist.neg {{.*}} {dist.sharding = #dist.sharding<@m, {{\[\[}}"x"], []]>}
// CHECK: dist.sigmoid {{.*}} {dist.sharding = #dist.sharding<@m, {{\[\[}}"x"], []]>}
func.func @op_annotation(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %n = dist.neg %x {dist.sharding = #dist.sharding<@m, [["x"], []]>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %s = dist.sigmoid %n : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %s : tensor<4x6xf32>
}

// -----

// Pending sums flow through add when both operands carry them (one
// reduction instead of two); the output itself is reduced.
dist.mesh @m shape = [2] axes = ["k"]
// CHECK-LABEL: func.func @partial_through_add(
// CHECK-SAME: -> (tensor<4x4xf32> {dist.sharding = #dist.sharding<@m, {{\[\[}}], []]>})
// CHECK: dist.matmul {{.*}} partial = ["k"]>
// CHECK: dist.matmul {{.*}} partial = ["k"]>
// CHECK: dist.add {{.*}} {dist.sharding = #dist.sharding<@m, {{\[\[}}], []], partial = ["k"]>}
func.func @partial_through_add(%a: tensor<4x8xf32> {dist.sharding = #dist.sharding<@m, [[], ["k"]]>},
                               %b: tensor<8x4xf32> {dist.sharding = #dist.sharding<@m, [["k"], []]>},
                               %c: tensor<4x8xf32> {dist.sharding = #dist.sharding<@m, [[], ["k"]]>}) -> tensor<4x4xf32> {
  %p = dist.matmul %a, %b : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %q = dist.matmul %c, %b : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %s = dist.add %p, %q : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// -----

// Ops with several results record one sharding per result; a split along
// the split axis is impossible, the other dims carry through.
dist.mesh @m shape = [2] axes = ["x"]
// CHECK-LABEL: func.func @multi_result(
// CHECK: dist.split {{.*}} dist.shardings = [#dist.sharding<@m, {{\[\[}}"x"], []]>, #dist.sharding<@m, {{\[\[}}"x"], []]>]
func.func @multi_result(%x: tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, [["x"], []]>}) -> (tensor<4x2xf32>, tensor<4x4xf32>) {
  %a, %b = dist.split %x {axis = 1 : i64, sizes = array<i64: 2, 4>} : (tensor<4x6xf32>) -> (tensor<4x2xf32>, tensor<4x4xf32>)
  return %a, %b : tensor<4x2xf32>, tensor<4x4xf32>
}

// -----

// Reshape maps a split of the columns onto the major factor of their group:
// the heads of a head-major qkv projection.
dist.mesh @m shape = [2] axes = ["tp"]
// CHECK-LABEL: func.func @heads(
// CHECK: dist.reshape {{.*}} {dist.sharding = #dist.sharding<@m, {{\[\[}}], [], ["tp"], [], []]>
// CHECK: dist.reshape {{.*}} {dist.sharding = #dist.sharding<@m, {{\[\[}}], ["tp"]]>
func.func @heads(%x: tensor<2x4x24xf32> {dist.sharding = #dist.sharding<@m, [[], [], ["tp"]]>}) -> tensor<8x24xf32> {
  %h = dist.reshape %x {shape = array<i64: 2, 4, 4, 3, 2>} : (tensor<2x4x24xf32>) -> tensor<2x4x4x3x2xf32>
  %f = dist.reshape %h {shape = array<i64: 8, 24>} : (tensor<2x4x4x3x2xf32>) -> tensor<8x24xf32>
  return %f : tensor<8x24xf32>
}

// -----

// Two operands disagree: the cheaper layout wins, ties go to the earlier
// operand.
dist.mesh @m shape = [2, 2] axes = ["a", "b"]
// CHECK-LABEL: func.func @conflict(
// CHECK: dist.add {{.*}} {dist.sharding = #dist.sharding<@m, {{\[\[}}"a"], []]>}
func.func @conflict(%x: tensor<4x4xf32> {dist.sharding = #dist.sharding<@m, [["a"], []]>},
                    %y: tensor<4x4xf32> {dist.sharding = #dist.sharding<@m, [["b"], []]>}) -> tensor<4x4xf32> {
  %s = dist.add %x, %y : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// -----

// Without any sharding the function is left alone.
// CHECK-LABEL: func.func @no_mesh(
// CHECK-NOT: dist.sharding
// CHECK-NOT: dist.mesh
// CHECK: return
func.func @no_mesh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = dist.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
