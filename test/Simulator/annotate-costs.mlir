// RUN: dist-opt %s --dist-annotate-costs="cluster=dgx-a100:nodes=1" | FileCheck %s
// RUN: not dist-opt %s --dist-annotate-costs="cluster=dgx-z" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: cluster spec 'dgx-z': unknown preset 'dgx-z'

!t = tensor<4096x4096xf16, #dist.devices<[0:8]>>
// CHECK-LABEL: func.func @main
func.func @main(%x: !t, %w: !t) -> !t {
  // 2 * 4096^3 FLOPs at 68.5% of 312 TFLOP/s = 0.643 ms, plus the ramp and the launch.
  // CHECK: dist.matmul {{.*}} {dist.cost_s = 6.50{{[0-9]+}}E-4 : f64}
  %y = dist.matmul %x, %w : (!t, !t) -> !t
  // CHECK: dist.relu {{.*}} {dist.cost_s = 4.1{{[0-9]+}}E-5 : f64}
  %r = dist.relu %y : (!t) -> !t
  // CHECK: dist.all_reduce {{.*}} {dist.cost_s = {{.*}} : f64}
  %s = dist.all_reduce %r sum groups [[0, 1, 2, 3, 4, 5, 6, 7]] : !t -> !t
  // CHECK: return
  // CHECK-NOT: dist.cost_s
  return %s : !t
}
