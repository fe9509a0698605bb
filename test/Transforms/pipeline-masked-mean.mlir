// A cross entropy that ignores labels (torch's F.cross_entropy,
// ignore_index = -100) is a mean over a count that depends on the whole
// batch's labels. Split into microbatches, the count is computed once per
// step from the whole batch, each microbatch computes the sum of its losses
// (a partial sum) and its gradient with the seed divided by the count, and
// the loss is divided once, after the microbatches are accumulated. The LM
// head's [b, s, V] -> [b * s, V] reshape splits along b, its outer factor.

// RUN: dist-opt %s --dist-autodiff=optimizer=sgd -o %t.train.mlir
// RUN: dist-opt %t.train.mlir --dist-pipeline="pp=1 microbatches=2" | FileCheck %s

// The count, before any microbatch: the labels that are -100 (one class
// of one-hot blocks of one class at block -100) subtracted from 8.
// CHECK-LABEL: func.func @lm
// CHECK-NOT: dist.microbatch
// CHECK: %[[FLAT:.*]] = dist.reshape %arg{{[0-9]+}} {{.*}} -> tensor<8xi64
// CHECK-NEXT: %[[IGNORE:.*]] = dist.constant dense<-100> : tensor<i64>
// CHECK-NEXT: %[[HOT:.*]] = dist.one_hot %[[FLAT]], %[[IGNORE]] {axis = 1 : i64, depth = 1 : i64
// CHECK-NEXT: %[[IGNORED:.*]] = dist.reduce_sum %[[HOT]] {axes = array<i64: 0, 1>
// CHECK-NEXT: %[[ALL:.*]] = dist.constant dense<8.000000e+00>
// CHECK-NEXT: %[[COUNT:.*]] = dist.sub %[[ALL]], %[[IGNORED]]
// CHECK: %[[SEED:.*]] = dist.div %{{.*}}, %[[COUNT]] {{{.*}}dist.phase = "backward"
// Each microbatch: the sum of its losses; its gradient from the scaled seed.
// CHECK: %[[L0:.*]] = dist.cross_entropy {{.*}}dist.microbatch = 0 : i64{{.*}}reduction = #dist<loss_reduction sum>} : (tensor<4x16xf32
// CHECK: dist.cross_entropy_grad %[[SEED]], {{.*}}dist.microbatch = 0 : i64{{.*}}reduction = #dist<loss_reduction sum>
// CHECK: %[[L1:.*]] = dist.cross_entropy {{.*}}dist.microbatch = 1 : i64{{.*}}reduction = #dist<loss_reduction sum>
// CHECK-NEXT: %[[SUM:.*]] = dist.add %[[L0]], %[[L1]]
// CHECK: dist.cross_entropy_grad %[[SEED]], {{.*}}dist.microbatch = 1 : i64
// The mean, once, after the microbatches.
// CHECK: %[[LOSS:.*]] = dist.div %[[SUM]], %[[COUNT]] {{{.*}}dist.phase = "forward", dist.stage = 0 : i64}
// CHECK: return %[[LOSS]]

// Exact: the split step computes the unsplit one, with ignored labels in
// both microbatches (3 of 8) and 4 microbatches over 2 stages.
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t.labels.npy', np.array([[3, -100], [7, 1], [-100, 2], [-100, 15]], dtype=np.int64))"
// RUN: dist-opt %t.train.mlir --dist-pipeline="pp=1 microbatches=2" -o %t.mb2.mlir
// RUN: dist-run %t.mb2.mlir --reference %t.train.mlir --input labels=%t.labels.npy | FileCheck %s --check-prefix=SAME
// RUN: dist-opt %t.train.mlir --dist-pipeline="pp=2 microbatches=4 schedule=1f1b" -o %t.pp2.mlir
// RUN: dist-run %t.pp2.mlir --reference %t.train.mlir --input labels=%t.labels.npy | FileCheck %s --check-prefix=SAME
// RUN: dist-opt %t.train.mlir --dist-pipeline="pp=2 microbatches=4 schedule=gpipe" -o %t.gpipe.mlir
// RUN: dist-run %t.gpipe.mlir --reference %t.train.mlir --input labels=%t.labels.npy | FileCheck %s --check-prefix=SAME
// SAME: overall: {{.*}}PASS

func.func @lm(%x: tensor<4x2x8xf32> {dist.role = "data", dist.name = "x"},
              %labels: tensor<4x2xi64> {dist.role = "data", dist.name = "labels"},
              %w0: tensor<8x8xf32> {dist.role = "parameter", dist.name = "layers.0.weight"},
              %w: tensor<8x16xf32> {dist.role = "parameter", dist.name = "head.weight"}) -> (tensor<f32> {dist.role = "loss"}) {
  %h0 = dist.matmul %x, %w0 {dist.layer = 0 : i64} : (tensor<4x2x8xf32>, tensor<8x8xf32>) -> tensor<4x2x8xf32>
  %a0 = dist.tanh %h0 {dist.layer = 0 : i64} : (tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
  %h = dist.matmul %a0, %w {dist.layer = 1 : i64} : (tensor<4x2x8xf32>, tensor<8x16xf32>) -> tensor<4x2x16xf32>
  %logits = dist.reshape %h {dist.layer = 1 : i64, shape = array<i64: 8, 16>} : (tensor<4x2x16xf32>) -> tensor<8x16xf32>
  %flat = dist.reshape %labels {dist.layer = 1 : i64, shape = array<i64: 8>} : (tensor<4x2xi64>) -> tensor<8xi64>
  %loss = dist.cross_entropy %logits, %flat {dist.layer = 1 : i64, ignore_index = -100 : i64} : (tensor<8x16xf32>, tensor<8xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}
