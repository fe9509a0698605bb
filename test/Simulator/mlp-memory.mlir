// Memory of an unsplit (unplaced, one device) MLP training step with SGD
// equals the hand count. Resident for the whole step: x 32768 + y 8192 +
// w1 131072 + w2 32768 + seed 4 = 204804 bytes. Each result lives from the
// start of its op to the end of its last consumer; ops run one after the
// other. The live set is largest while sgd_update of w1 runs:
// loss 4 + dw2 32768 + dw1 131072 + new w1 131072 = 294916 bytes
// (h, a, p, dp, da, dh are dead by then; see the op-by-op count in
// docs/dist-sim.md). Peak = 204804 + 294916 = 499720.
// RUN: dist-sim %s --cluster dgx-a100 --report %t.json
// RUN: FileCheck %s < %t.json
// CHECK: "peak_memory_bytes": 499720,
// CHECK: "resident_bytes": 204804
// CHECK: "num_device_classes": 1,
// CHECK: "peak_memory_bytes": 499720,

func.func @main(%x: tensor<64x128xf32>, %y: tensor<64x32xf32>,
                %w1: tensor<128x256xf32>, %w2: tensor<256x32xf32>,
                %seed: tensor<f32>)
    -> (tensor<f32>, tensor<128x256xf32>, tensor<256x32xf32>) {
  %h = dist.matmul %x, %w1 : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %a = dist.relu %h : (tensor<64x256xf32>) -> tensor<64x256xf32>
  %p = dist.matmul %a, %w2 : (tensor<64x256xf32>, tensor<256x32xf32>) -> tensor<64x32xf32>
  %l = dist.mse_loss %p, %y : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<f32>
  %dp = dist.mse_loss_grad %seed, %p, %y : (tensor<f32>, tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  %dw2 = dist.matmul %a, %dp {transpose_a} : (tensor<64x256xf32>, tensor<64x32xf32>) -> tensor<256x32xf32>
  %da = dist.matmul %dp, %w2 {transpose_b} : (tensor<64x32xf32>, tensor<256x32xf32>) -> tensor<64x256xf32>
  %dh = dist.relu_grad %da, %h : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
  %dw1 = dist.matmul %x, %dh {transpose_a} : (tensor<64x128xf32>, tensor<64x256xf32>) -> tensor<128x256xf32>
  %nw1 = dist.sgd_update %w1, %dw1 {lr = 0.1 : f64} : (tensor<128x256xf32>, tensor<128x256xf32>) -> tensor<128x256xf32>
  %nw2 = dist.sgd_update %w2, %dw2 {lr = 0.1 : f64} : (tensor<256x32xf32>, tensor<256x32xf32>) -> tensor<256x32xf32>
  return %l, %nw1, %nw2 : tensor<f32>, tensor<128x256xf32>, tensor<256x32xf32>
}
