// Data parallel over two devices: the all-reduce of dW2 can run while dW1 is
// computed. With --no-overlap communication shares the compute stream, so
// the step is longer by the hidden all-reduce (activations of 1024 rows:
// the all-reduces of the 4096 x 4096 weights are a visible share of the step).
// RUN: dist-sim %s --cluster dgx-a100 --report %t.overlap.json
// RUN: dist-sim %s --cluster dgx-a100 --no-overlap --report %t.serial.json
// RUN: %python %S/Inputs/compare.py %t.overlap.json %t.serial.json | FileCheck %s
// CHECK: {{^}}faster

!act = tensor<1024x4096xf16, #dist.devices<[0:2]>>
!w = tensor<4096x4096xf16, #dist.devices<[0:2]>>
func.func @main(%x: !act, %w1: !w, %w2: !w, %dy: !act) -> (!w, !w) {
  %h = dist.matmul %x, %w1 : (!act, !w) -> !act
  // Backward: weight gradient of layer 2, then layer 1.
  %dw2 = dist.matmul %h, %dy {transpose_a} : (!act, !act) -> !w
  %dw2s = dist.all_reduce %dw2 sum groups [[0, 1]] : !w -> !w
  %dh = dist.matmul %dy, %w2 {transpose_b} : (!act, !w) -> !act
  %dw1 = dist.matmul %x, %dh {transpose_a} : (!act, !act) -> !w
  %dw1s = dist.all_reduce %dw1 sum groups [[0, 1]] : !w -> !w
  return %dw1s, %dw2s : !w, !w
}
