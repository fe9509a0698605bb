// RUN: dist-opt %s --dist-test-sharding-rules | FileCheck %s

// Each op's sharding rule (getShardingRule), printed by the test-only pass:
// loops i, j, k, ... per operand and result dim; `reduction` loops are in no
// result (sums), `whole` loops cannot be split, `mean` loops are normalized,
// `linear` lists the jointly linear operands. Ops without a rule say why.

// CHECK-LABEL: func.func @rules(
// CHECK: dist.matmul {{.*}}test.sharding_rule = "([i, k], [k, j]) -> ([i, j]) reduction={k}"
// CHECK: dist.add {{.*}}test.sharding_rule = "([i, j], [j]) -> ([i, j]) linear={0, 1}"
// CHECK: dist.relu {{.*}}test.sharding_rule = "([i, j]) -> ([i, j])"
// CHECK: dist.reduce_sum {{.*}}test.sharding_rule = "([i, j]) -> ([j]) reduction={i}"
// CHECK: dist.reduce_mean {{.*}}test.sharding_rule = "([i, j]) -> ([i]) reduction={j} mean={j}"
// CHECK: dist.softmax {{.*}}test.sharding_rule = "([i, j, k]) -> ([i, j, k]) whole={k}"
// CHECK: dist.layer_norm {{.*}}test.sharding_rule = "([i, j, k], [k], [k]) -> ([i, j, k]) whole={k}"
// CHECK: dist.transpose {{.*}}test.sharding_rule = "([i, j, k]) -> ([j, i, k]) linear={0}"
// CHECK: dist.reshape {{.*}}test.sharding_rule = "([i, j, k]) -> ([i, k]) reduction={j} whole={j} linear={0}"
// CHECK: dist.concat {{.*}}test.sharding_rule = "([i, j], [i, j]) -> ([i, j]) whole={j} linear={0, 1}"
// CHECK: dist.cross_entropy {{.*}}test.sharding_rule = "([i, j], [i]) -> ([]) reduction={i, j} mean={i} expands={j}"
// CHECK: dist.attention {{.*}}test.sharding_rule = "([i, j, k, m], [i, j, l, m], [i, j, l, n]) -> ([i, j, k, n], [i, j, k]) reduction={l, m} whole={k, l, m, n}"
// CHECK: dist.attention {{.*}}test.sharding_rule = "([i, j, k, m], [i, j, l, m], [i, j, l, n]) -> ([i, j, k, n], [i, j, k]) reduction={l, m} whole={k, l, m, n} expands={i, j}"
// CHECK: dist.attention_grad {{.*}}test.sharding_rule = "([i, j, k, m], [i, j, l, m], [i, j, l, n], [i, j, k, n], [i, j, k], [i, j, k, n]) -> ([i, j, k, m], [i, j, l, m], [i, j, l, n]) whole={k, l, m, n}"
// CHECK: dist.all_reduce {{.*}}test.sharding_rule = "none: 'dist.all_reduce' op has no sharding rule"
func.func @rules(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>,
                 %a: tensor<2x8x32xf32>, %v: tensor<32xf32>, %labels: tensor<8xi64>,
                 %d: tensor<4xf32, #dist.devices<[0:2]>>,
                 %q: tensor<2x4x8x16xf32>) -> tensor<f32> {
  %h = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %hb = dist.add %h, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %r = dist.relu %hb : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %s = dist.reduce_sum %r {axes = array<i64: 0>} : (tensor<8x32xf32>) -> tensor<32xf32>
  %m = dist.reduce_mean %r {axes = array<i64: 1>} : (tensor<8x32xf32>) -> tensor<8xf32>
  %p = dist.softmax %a {axis = -1} : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  %n = dist.layer_norm %a, %v, %v {axis = -1, epsilon = 1.0e-6 : f64} : (tensor<2x8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
  %t = dist.transpose %n {permutation = array<i64: 1, 0, 2>} : (tensor<2x8x32xf32>) -> tensor<8x2x32xf32>
  %f = dist.reshape %t {shape = array<i64: 16, -1>} : (tensor<8x2x32xf32>) -> tensor<16x32xf32>
  %c = dist.concat %r, %r {axis = 1} : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x64xf32>
  %l = dist.cross_entropy %r, %labels : (tensor<8x32xf32>, tensor<8xi64>) -> tensor<f32>
  %o, %lse = dist.attention %q, %q, %q {causal} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  %o2, %lse2 = dist.attention %q, %q, %q {dropout_ratio = 0.1 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  %dq, %dk, %dv = dist.attention_grad %q, %q, %q, %o, %lse, %o : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>)
  %g = dist.all_reduce %d sum groups [[0, 1]] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[0:2]>>
  return %l : tensor<f32>
}
