// RUN: dist-opt %s -split-input-file --dist-infer-shapes | FileCheck %s
// RUN: dist-opt %s -split-input-file --dist-infer-shapes | dist-opt -split-input-file | FileCheck %s

// Result types written with dynamic dimensions are refined from the inputs.

// CHECK-LABEL: func.func @forward
// CHECK-SAME: -> (tensor<2x8x48xf32>, tensor<f32>)
func.func @forward(%x: tensor<2x8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>,
                   %g: tensor<32xf32>, %tok: tensor<2x8xi64>, %table: tensor<100x32xf32>)
    -> (tensor<?x?x?xf32>, tensor<f32>) {
  // CHECK: dist.matmul {{.*}} -> tensor<2x8x32xf32>
  %0 = dist.matmul %x, %w : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<?x?x?xf32>
  // CHECK: dist.add {{.*}} -> tensor<2x8x32xf32>
  %1 = dist.add %0, %b : (tensor<?x?x?xf32>, tensor<32xf32>) -> tensor<?x?x?xf32>
  // CHECK: dist.layer_norm {{.*}} -> tensor<2x8x32xf32>
  %2 = dist.layer_norm %1, %g, %g : (tensor<?x?x?xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x?x?xf32>
  // CHECK: dist.reshape {{.*}} -> tensor<2x8x4x8xf32>
  %3 = dist.reshape %2 {shape = array<i64: 2, 8, 4, -1>} : (tensor<?x?x?xf32>) -> tensor<?x?x?x?xf32>
  // CHECK: dist.transpose {{.*}} -> tensor<2x4x8x8xf32>
  %4 = dist.transpose %3 {permutation = array<i64: 0, 2, 1, 3>} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  // CHECK: dist.matmul {{.*}} {transpose_b} : {{.*}} -> tensor<2x4x8x8xf32>
  %5 = dist.matmul %4, %4 {transpose_b} : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  // CHECK: dist.softmax {{.*}} -> tensor<2x4x8x8xf32>
  %6 = dist.softmax %5 {causal} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  // CHECK: dist.take {{.*}} -> tensor<2x8x32xf32>
  %7 = dist.take %table, %tok : (tensor<100x32xf32>, tensor<2x8xi64>) -> tensor<?x?x?xf32>
  // CHECK: dist.slice {{.*}} -> tensor<2x8x16xf32>
  %8 = dist.slice %7 {starts = array<i64: 0, 0, 0>, limits = array<i64: 2, 8, 32>, strides = array<i64: 1, 1, 2>} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  // CHECK: dist.concat {{.*}} -> tensor<2x8x48xf32>
  %9 = dist.concat %2, %8 {axis = 2} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  // CHECK: dist.cross_entropy {{.*}} -> tensor<f32>
  %10 = dist.cross_entropy %9, %tok : (tensor<?x?x?xf32>, tensor<2x8xi64>) -> tensor<f32>
  // CHECK: return {{.*}} : tensor<2x8x48xf32>, tensor<f32>
  return %9, %10 : tensor<?x?x?xf32>, tensor<f32>
}

// -----

// Every collective refines its result from its (placed) operand.

// CHECK-LABEL: func.func @collectives
func.func @collectives(%x: tensor<8x16xf32, #dist.devices<[0:4]>>, %r: tensor<8x16xf32, #dist.devices<[0, 2]>>) {
  // CHECK: dist.send {{.*}} -> tensor<8x16xf32, #dist.devices<[4:8]>>
  %0 = dist.send %x to [4:8] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[4:8]>>
  // CHECK: dist.all_reduce {{.*}} -> tensor<8x16xf32, #dist.devices<[0:4]>>
  %1 = dist.all_reduce %x sum groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[0:4]>>
  // CHECK: dist.all_gather {{.*}} -> tensor<8x32xf32, #dist.devices<[0:4]>>
  %2 = dist.all_gather %x dim 1 groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[0:4]>>
  // CHECK: dist.reduce_scatter {{.*}} -> tensor<2x16xf32, #dist.devices<[0:4]>>
  %3 = dist.reduce_scatter %x sum dim 0 groups [[0:4]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[0:4]>>
  // CHECK: dist.all_to_all {{.*}} -> tensor<4x32xf32, #dist.devices<[0:4]>>
  %4 = dist.all_to_all %x split_dim 0 concat_dim 1 groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[0:4]>>
  // CHECK: dist.broadcast {{.*}} -> tensor<8x16xf32, #dist.devices<[0:4]>>
  %5 = dist.broadcast %r root 0 groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0, 2]>> -> tensor<?x?xf32, #dist.devices<[0:4]>>
  // CHECK: dist.scatter {{.*}} -> tensor<4x16xf32, #dist.devices<[0:4]>>
  %6 = dist.scatter %r root 0 dim 0 groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0, 2]>> -> tensor<?x?xf32, #dist.devices<[0:4]>>
  // CHECK: dist.gather {{.*}} -> tensor<16x16xf32, #dist.devices<[0, 2]>>
  %7 = dist.gather %x root 0 dim 0 groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[0, 2]>>
  // CHECK: dist.reduce {{.*}} -> tensor<8x16xf32, #dist.devices<[0, 2]>>
  %8 = dist.reduce %x sum root 0 groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[0, 2]>>
  return
}

// -----

// Callers follow the refined signatures of their callees.

// CHECK-LABEL: func.func @callee
// CHECK-SAME: -> tensor<4x3xf32>
func.func @callee(%x: tensor<4x3xf32>) -> tensor<?x?xf32> {
  %0 = dist.relu %x : (tensor<4x3xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @caller
// CHECK: call @callee({{.*}}) : (tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: dist.exp {{.*}} -> tensor<4x3xf32>
func.func @caller(%x: tensor<4x3xf32>) -> tensor<?x?xf32> {
  %0 = func.call @callee(%x) : (tensor<4x3xf32>) -> tensor<?x?xf32>
  %1 = dist.exp %0 : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}
