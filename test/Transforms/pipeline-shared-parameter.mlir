// A parameter read on two pipeline stages (a tied embedding; torch's
// deduplicated initializers) with dp: it lives and is updated on its first
// stage, is sent once per step to the other, and the other stage's gradient
// contribution, accumulated over its microbatches and still a partial sum
// over dp, is sent back and added to the first stage's before the one
// all_reduce over dp (Megatron-LM all-reduces the tied embedding's gradient
// between its first and last stage).

// RUN: dist-opt %s --dist-autodiff=optimizer=adam -o %t.train.mlir
// RUN: dist-opt %t.train.mlir "--dist-parallelize=dp=2 pp=2 microbatches=2" -o %t.par.mlir
// RUN: FileCheck %s < %t.par.mlir
// CHECK-LABEL: func.func @tied
// CHECK: %[[W1:.*]] = dist.send %arg0 to [2:4] {{{.*}}dist.phase = "forward", dist.stage = 1 : i64} : tensor<8x8xf32, #dist.devices<[0:2]>> -> tensor<8x8xf32, #dist.devices<[2:4]>>
// CHECK: dist.matmul {{.*}}, %[[W1]] {{{.*}}dist.microbatch = 0 : i64{{.*}}transpose_b
// Stage 1's contribution, summed over its microbatches, goes to stage 0 once.
// CHECK: %[[PART:.*]] = dist.add {{.*}}dist.microbatch = 1 : i64, dist.phase = "backward", dist.stage = 1 : i64} : (tensor<8x8xf32, #dist.devices<[2:4]>>
// CHECK: %[[SENT:.*]] = dist.send %[[PART]] to [0:2] {{{.*}}dist.phase = "backward", dist.stage = 1 : i64} : tensor<8x8xf32
// CHECK: %[[SUM:.*]] = dist.add %[[SENT]], %{{.*}} {{{.*}}dist.stage = 0 : i64} : (tensor<8x8xf32, #dist.devices<[0:2]>>
// CHECK-NEXT: %[[GRAD:.*]] = dist.all_reduce %[[SUM]] sum groups {{\[\[0:2\]\]}}
// CHECK-NEXT: dist.adam_update %arg0, %[[GRAD]]

// Exact, with dp and without, 1F1B and GPipe.
// RUN: dist-run %t.par.mlir --reference %t.train.mlir | FileCheck %s --check-prefix=SAME
// RUN: dist-opt %t.train.mlir "--dist-parallelize=dp=2 pp=2 microbatches=1" -o %t.mb1.mlir
// RUN: dist-run %t.mb1.mlir --reference %t.train.mlir | FileCheck %s --check-prefix=SAME
// RUN: dist-opt %t.train.mlir "--dist-pipeline=pp=2 microbatches=4 schedule=gpipe" -o %t.pp.mlir
// RUN: dist-run %t.pp.mlir --reference %t.train.mlir | FileCheck %s --check-prefix=SAME
// SAME: overall: {{.*}}PASS

func.func @tied(%x: tensor<4x8xf32> {dist.role = "data", dist.name = "x"},
                %target: tensor<4x8xf32> {dist.role = "data", dist.name = "target"},
                %w: tensor<8x8xf32> {dist.role = "parameter", dist.name = "shared.weight"},
                %b: tensor<8xf32> {dist.role = "parameter", dist.name = "shared.bias"},
                %w1: tensor<8x8xf32> {dist.role = "parameter", dist.name = "layers.1.weight"}) -> (tensor<f32> {dist.role = "loss"}) {
  %h0 = dist.matmul %x, %w {dist.layer = 0 : i64} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %s0 = dist.add %h0, %b {dist.layer = 0 : i64} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %a0 = dist.tanh %s0 {dist.layer = 0 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %h1 = dist.matmul %a0, %w1 {dist.layer = 1 : i64} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %s1 = dist.add %h1, %b {dist.layer = 1 : i64} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %a1 = dist.tanh %s1 {dist.layer = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = dist.matmul %a1, %w {dist.layer = 1 : i64, transpose_b} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %loss = dist.mse_loss %y, %target {dist.layer = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}
