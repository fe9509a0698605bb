// A value computed once per step that spans the batch without depending on
// the data (ViT's class token expanded to the batch), which the partitioner
// resharded over dp (a reduce_scatter of identical copies) and which
// therefore cannot be recomputed at a microbatch's shape: each microbatch
// slices its block of the step value.

// RUN: dist-opt %s --dist-autodiff=optimizer=adam -o %t.train.mlir
// RUN: dist-opt %t.train.mlir "--dist-parallelize=dp=2 pp=2 microbatches=2" -o %t.par.mlir
// RUN: FileCheck %s < %t.par.mlir
// CHECK-LABEL: func.func @class_token
// CHECK: %[[TOKENS:.*]] = dist.reduce_scatter %{{.*}} avg dim 0 {{.*}} -> tensor<2x1x8xf32
// CHECK: %[[T0:.*]] = dist.slice %[[TOKENS]] {dist.microbatch = 0 : i64, {{.*}}limits = array<i64: 1, 1, 8>, starts = array<i64: 0, 0, 0>
// CHECK: dist.concat %[[T0]], %{{.*}} {axis = 1 : i64, dist.microbatch = 0 : i64
// CHECK: %[[T1:.*]] = dist.slice %[[TOKENS]] {dist.microbatch = 1 : i64, {{.*}}limits = array<i64: 2, 1, 8>, starts = array<i64: 1, 0, 0>
// CHECK: dist.concat %[[T1]], %{{.*}} {axis = 1 : i64, dist.microbatch = 1 : i64

// Exact: the split step computes the unsplit one.
// RUN: dist-run %t.par.mlir --reference %t.train.mlir | FileCheck %s --check-prefix=SAME
// SAME: overall: {{.*}}PASS

func.func @class_token(%x: tensor<4x2x8xf32> {dist.role = "data", dist.name = "x"},
                       %target: tensor<4x3x8xf32> {dist.role = "data", dist.name = "target"},
                       %cls: tensor<1x1x8xf32> {dist.role = "parameter", dist.name = "class_token"},
                       %w0: tensor<8x8xf32> {dist.role = "parameter", dist.name = "layers.0.weight"},
                       %w1: tensor<8x8xf32> {dist.role = "parameter", dist.name = "layers.1.weight"}) -> (tensor<f32> {dist.role = "loss"}) {
  %c = dist.expand %cls {shape = array<i64: 4, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<4x1x8xf32>
  %t = dist.concat %c, %x {axis = 1 : i64} : (tensor<4x1x8xf32>, tensor<4x2x8xf32>) -> tensor<4x3x8xf32>
  %h0 = dist.matmul %t, %w0 {dist.layer = 0 : i64} : (tensor<4x3x8xf32>, tensor<8x8xf32>) -> tensor<4x3x8xf32>
  %a0 = dist.tanh %h0 {dist.layer = 0 : i64} : (tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
  %h1 = dist.matmul %a0, %w1 {dist.layer = 1 : i64} : (tensor<4x3x8xf32>, tensor<8x8xf32>) -> tensor<4x3x8xf32>
  %loss = dist.mse_loss %h1, %target {dist.layer = 1 : i64} : (tensor<4x3x8xf32>, tensor<4x3x8xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}
