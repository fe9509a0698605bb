// The trace is valid Chrome-trace JSON with one process per device class,
// one thread per stream; the same input gives identical outputs run after run.
// RUN: dist-sim %s --cluster dgx-a100:nodes=2 --report %t.r1.json --trace %t.t1.json > %t.s1
// RUN: dist-sim %s --cluster dgx-a100:nodes=2 --report %t.r2.json --trace %t.t2.json > %t.s2
// RUN: diff %t.r1.json %t.r2.json
// RUN: diff %t.t1.json %t.t2.json
// RUN: diff %t.s1 %t.s2
// RUN: %python %S/Inputs/check_trace.py %t.t1.json | FileCheck %s
// CHECK: valid trace
// CHECK-SAME: processes=devices 0-7,devices 8-15
// CHECK-SAME: threads=collective,compute,gradient reduce,receive,send

!a = tensor<1024x1024xf16, #dist.devices<[0:8]>>
!b = tensor<1024x1024xf16, #dist.devices<[8:16]>>
func.func @main(%x: !a, %w: !a, %v: !b) -> !b {
  %y = dist.matmul %x, %w : (!a, !a) -> !a
  %s = dist.all_reduce %y sum groups [[0, 1, 2, 3, 4, 5, 6, 7]] : !a -> !a
  %t = dist.send %s to [8:16] : !a -> !b
  %u = dist.matmul %t, %v : (!b, !b) -> !b
  return %u : !b
}
