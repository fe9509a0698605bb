// The five matmul policies of the virtual-parallelism design and the GSPMD
// 2-D sharded feed-forward layer (Xu et al. 2021, §3.3): each function only
// annotates its signature; propagation picks the loop splits and the
// partitioner the collectives. dist-run checks that every partitioned
// function computes what the unpartitioned one does.

// RUN: dist-opt %s --dist-propagate-sharding --dist-partition | FileCheck %s
// RUN: dist-opt %s --dist-propagate-sharding --dist-partition -o %t
// RUN: dist-run %t --reference %s --entry replicated --seed 1 | FileCheck %s --check-prefix=EXEC
// RUN: dist-run %t --reference %s --entry matched_inner --seed 2 | FileCheck %s --check-prefix=EXEC
// RUN: dist-run %t --reference %s --entry unmatched_inner --seed 3 | FileCheck %s --check-prefix=EXEC
// RUN: dist-run %t --reference %s --entry outer_inner --seed 4 | FileCheck %s --check-prefix=EXEC
// RUN: dist-run %t --reference %s --entry full_mnk --seed 5 | FileCheck %s --check-prefix=EXEC
// RUN: dist-run %t --reference %s --entry gspmd_ffn --seed 6 | FileCheck %s --check-prefix=EXEC
// The comparison discriminates: the matched-inner product without its
// all_reduce is wrong.
// RUN: dist-opt %s --dist-propagate-sharding --dist-partition | sed -e 's/dist.all_reduce %0 sum groups \[\[0, 2\], \[1, 3\]\]/dist.all_reduce %0 sum groups [[0], [1], [2], [3]]/' > %t.broken
// RUN: not dist-run %t.broken --reference %s --entry matched_inner --seed 2 2>&1 | FileCheck %s --check-prefix=BROKEN

// EXEC: overall: {{.*}}: PASS
// BROKEN: replicas on devices 0 and 2 differ

dist.mesh @m2 shape = [2, 2] axes = ["a", "b"]
dist.mesh @m3 shape = [2, 2, 2] axes = ["a", "b", "c"]

// 1. Unsharded: every device computes the whole product, no communication.
// CHECK-LABEL: func.func @replicated(
// CHECK-SAME: tensor<8x16xf32, #dist.devices<[0:4]>>
// CHECK-NOT: dist.all_
// CHECK-NOT: dist.reduce_scatter
// CHECK: dist.matmul {{.*}} -> tensor<8x32xf32, #dist.devices<[0:4]>>
// CHECK-NOT: dist.all_
// CHECK: return
func.func @replicated(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@m2, [[], []]>},
                      %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@m2, [[], []]>})
    -> (tensor<8x32xf32> {dist.sharding = #dist.sharding<@m2, [[], []]>}) {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// 2. Matched inner-dimension sharding: local products are partial sums over
// "a", reduced by one all_reduce over the "a" groups.
// CHECK-LABEL: func.func @matched_inner(
// CHECK-NOT: dist.all_gather
// CHECK: %[[P:.*]] = dist.matmul {{.*}} partial = ["a"]>} : (tensor<8x8xf32, #dist.devices<[0:4]>>, tensor<8x32xf32, #dist.devices<[0:4]>>) -> tensor<8x32xf32, #dist.devices<[0:4]>>
// CHECK: %[[R:.*]] = dist.all_reduce %[[P]] sum groups {{\[\[}}0, 2], [1, 3]]
// CHECK: return %[[R]]
func.func @matched_inner(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@m2, [[], ["a"]]>},
                         %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@m2, [["a"], []]>})
    -> (tensor<8x32xf32> {dist.sharding = #dist.sharding<@m2, [[], []]>}) {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// 3. Unmatched inner sharding (k split over "a" on one side, over "b" on the
// other): both operands are all-gathered, the product needs no reduction.
// CHECK-LABEL: func.func @unmatched_inner(
// CHECK: dist.all_gather %arg0 dim 1 groups {{\[\[}}0, 2], [1, 3]] : tensor<8x8xf32, {{.*}}> -> tensor<8x16xf32
// CHECK: dist.all_gather %arg1 dim 0 groups {{\[\[}}0:2], [2:4]] : tensor<8x32xf32, {{.*}}> -> tensor<16x32xf32
// CHECK: dist.matmul
// CHECK-NOT: dist.all_reduce
// CHECK: return
func.func @unmatched_inner(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@m2, [[], ["a"]]>},
                           %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@m2, [["b"], []]>})
    -> (tensor<8x32xf32> {dist.sharding = #dist.sharding<@m2, [[], []]>}) {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// 4. Outer plus inner sharding: rows over "a", k over "b"; the row blocks
// stay split, the partial sums are reduced over the "b" groups only.
// CHECK-LABEL: func.func @outer_inner(
// CHECK-NOT: dist.all_gather
// CHECK: %[[P:.*]] = dist.matmul {{.*}} -> tensor<4x32xf32, #dist.devices<[0:4]>>
// CHECK: %[[R:.*]] = dist.all_reduce %[[P]] sum groups {{\[\[}}0:2], [2:4]]
// CHECK: return %[[R]] : tensor<4x32xf32
func.func @outer_inner(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@m2, [["a"], ["b"]]>},
                       %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@m2, [["b"], []]>})
    -> (tensor<8x32xf32> {dist.sharding = #dist.sharding<@m2, [["a"], []]>}) {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// 5. Full sharding of m (over "a"), n (over "b") and k (over "c") on 8
// devices: one local block product, an all_reduce over the "c" pairs.
// CHECK-LABEL: func.func @full_mnk(
// CHECK-NOT: dist.all_gather
// CHECK: %[[P:.*]] = dist.matmul {{.*}} : (tensor<4x8xf32, #dist.devices<[0:8]>>, tensor<8x16xf32, #dist.devices<[0:8]>>) -> tensor<4x16xf32, #dist.devices<[0:8]>>
// CHECK: %[[R:.*]] = dist.all_reduce %[[P]] sum groups {{\[\[}}0:2], [2:4], [4:6], [6:8]]
// CHECK: return %[[R]]
func.func @full_mnk(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@m3, [["a"], ["c"]]>},
                    %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@m3, [["c"], ["b"]]>})
    -> (tensor<8x32xf32> {dist.sharding = #dist.sharding<@m3, [["a"], ["b"]]>}) {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// The GSPMD feed-forward layer: activations [batch over "a", model over
// "b"], W1 [model over "a", hidden over "b"], W2 [hidden over "b", model over
// "a"]. all_gather (input over "b") -> all_gather (W1 over "a") -> einsum ->
// all_gather (W2 over "a") -> einsum -> reduce_scatter over "b": the hidden
// activation stays 2-D sharded and the output comes back in the input's
// layout.
// CHECK-LABEL: func.func @gspmd_ffn(
// CHECK: %[[X:.*]] = dist.all_gather %arg0 dim 1 groups {{\[\[}}0:2], [2:4]] : tensor<8x16xf32, {{.*}}> -> tensor<8x32xf32
// CHECK: %[[W1:.*]] = dist.all_gather %arg1 dim 0 groups {{\[\[}}0, 2], [1, 3]] : tensor<16x32xf32, {{.*}}> -> tensor<32x32xf32
// CHECK: %[[H:.*]] = dist.matmul %[[X]], %[[W1]] {dist.sharding = #dist.sharding<@m2, {{\[\[}}"a"], ["b"]]>} : {{.*}} -> tensor<8x32xf32
// CHECK: %[[R:.*]] = dist.relu %[[H]]
// CHECK: %[[W2:.*]] = dist.all_gather %arg2 dim 1 groups {{\[\[}}0, 2], [1, 3]] : tensor<32x16xf32, {{.*}}> -> tensor<32x32xf32
// CHECK: %[[Y:.*]] = dist.matmul %[[R]], %[[W2]] {dist.sharding = #dist.sharding<@m2, {{\[\[}}"a"], []], partial = ["b"]>} : {{.*}} -> tensor<8x32xf32
// CHECK: %[[S:.*]] = dist.reduce_scatter %[[Y]] sum dim 1 groups {{\[\[}}0:2], [2:4]] : tensor<8x32xf32, {{.*}}> -> tensor<8x16xf32
// CHECK-NOT: dist.all_reduce
// CHECK: return %[[S]]
func.func @gspmd_ffn(%x: tensor<16x32xf32> {dist.sharding = #dist.sharding<@m2, [["a"], ["b"]]>},
                     %w1: tensor<32x64xf32> {dist.sharding = #dist.sharding<@m2, [["a"], ["b"]]>},
                     %w2: tensor<64x32xf32> {dist.sharding = #dist.sharding<@m2, [["b"], ["a"]]>})
    -> (tensor<16x32xf32> {dist.sharding = #dist.sharding<@m2, [["a"], ["b"]]>}) {
  %h = dist.matmul %x, %w1 : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  %r = dist.relu %h : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = dist.matmul %r, %w2 : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
