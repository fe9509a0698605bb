// RUN: not dist-opt %s --dist-recompute=mode=full 2>&1 | FileCheck %s --check-prefix=FORWARD
// RUN: dist-opt %s --dist-autodiff=optimizer=none -o %t.step.mlir
// RUN: not dist-opt %t.step.mlir --dist-recompute=mode=everything 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: dist-opt %t.step.mlir --dist-recompute=mode=selective 2>&1 | FileCheck %s --check-prefix=NOATTN
// RUN: sed -e 's/{dist.layer = 0}//' %s | dist-opt --dist-autodiff=optimizer=none | dist-opt --dist-recompute=mode=full 2>&1 | FileCheck %s --check-prefix=NOLAYER

// FORWARD: recompute-errors.mlir:14:1: error: dist-recompute: no training step (a function with dist.phase = "backward" ops): run dist-autodiff first
// MODE: for the --mode option: Cannot find option named 'everything'!
// NOATTN: warning: dist-recompute: nothing to recompute in @f (no softmax attention pattern)
// NOATTN-NOT: dist.recomputed
// NOLAYER: warning: dist-recompute: nothing to recompute in @f (forward ops carry no dist.layer)
// NOLAYER-NOT: dist.recomputed

func.func @f(%x: tensor<4x8xf32> {dist.name = "input", dist.role = "data"},
             %w: tensor<8x8xf32> {dist.name = "w", dist.role = "parameter"})
    -> (tensor<f32> {dist.name = "loss", dist.role = "loss"}) {
  %h = dist.matmul %x, %w {dist.layer = 0} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a = dist.tanh %h {dist.layer = 0} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = dist.mse_loss %a, %x {dist.layer = 0} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
