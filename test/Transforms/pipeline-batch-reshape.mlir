// A reshape that merges the batch with another dim splits into
// microbatches when the batch stays one factor of one dim: as the major
// factor (an LM head's [b, s, V] -> [b * s, V]: a block of rows) or as a
// minor one (a time-major RNN's [s, b, h] -> [s * b, h], attention's
// [s, b * heads, d] -> [s * b, h]: the microbatch's rows are its block of b
// in each of the s blocks, in order), and the reshape back restores the
// block.

// RUN: dist-opt %s --dist-autodiff=optimizer=sgd -o %t.train.mlir
// RUN: dist-opt %t.train.mlir --dist-pipeline="pp=1 microbatches=2" | FileCheck %s
// CHECK-LABEL: func.func @time_major
// CHECK: %[[X:.*]] = dist.slice %arg{{[0-9]+}} {dist.microbatch = 0 : i64{{.*}} -> tensor<2x2x8xf32
// CHECK: %[[T:.*]] = dist.transpose %[[X]] {{.*}} -> tensor<2x2x8xf32
// CHECK: %[[ROWS:.*]] = dist.reshape %[[T]] {dist.microbatch = 0 : i64, {{.*}}shape = array<i64: 4, 8>} : (tensor<2x2x8xf32, {{.*}}>) -> tensor<4x8xf32
// CHECK: dist.matmul %[[ROWS]]
// CHECK: dist.reshape %{{.*}} {dist.microbatch = 0 : i64, {{.*}}shape = array<i64: 2, 2, 8>} : (tensor<4x8xf32, {{.*}}>) -> tensor<2x2x8xf32

// Exact: the split step computes the unsplit one.
// RUN: dist-opt %t.train.mlir --dist-pipeline="pp=1 microbatches=2" -o %t.mb2.mlir
// RUN: dist-run %t.mb2.mlir --reference %t.train.mlir | FileCheck %s --check-prefix=SAME
// RUN: dist-opt %t.train.mlir --dist-pipeline="pp=1 microbatches=4" -o %t.mb4.mlir
// RUN: dist-run %t.mb4.mlir --reference %t.train.mlir | FileCheck %s --check-prefix=SAME
// SAME: overall: {{.*}}PASS

// The microbatch's rows are not a block of the merged dim: a value that
// keeps them cannot be put back in order after the microbatches.
// RUN: not dist-opt %S/Inputs/pipeline-batch-reshape-order.mlir --dist-pipeline="pp=1 microbatches=2" 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: error: 'dist.matmul' op holds the batch as a minor factor of a merged dimension and is needed after the microbatches; its microbatches cannot be put back in order

func.func @time_major(%x: tensor<4x2x8xf32> {dist.role = "data", dist.name = "x"},
                      %target: tensor<4x2x8xf32> {dist.role = "data", dist.name = "target"},
                      %w: tensor<8x8xf32> {dist.role = "parameter", dist.name = "head.weight"}) -> (tensor<f32> {dist.role = "loss"}) {
  %t = dist.transpose %x {permutation = array<i64: 1, 0, 2>} : (tensor<4x2x8xf32>) -> tensor<2x4x8xf32>
  %rows = dist.reshape %t {shape = array<i64: 8, 8>} : (tensor<2x4x8xf32>) -> tensor<8x8xf32>
  %h = dist.matmul %rows, %w : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %a = dist.tanh %h : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %back = dist.reshape %a {shape = array<i64: 2, 4, 8>} : (tensor<8x8xf32>) -> tensor<2x4x8xf32>
  %y = dist.transpose %back {permutation = array<i64: 1, 0, 2>} : (tensor<2x4x8xf32>) -> tensor<4x2x8xf32>
  %loss = dist.mse_loss %y, %target : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}

