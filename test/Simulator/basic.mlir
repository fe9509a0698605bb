// A tensor-parallel pair followed by a pipeline send: the summary, the JSON
// report and the device classes.
// RUN: dist-sim %s --cluster dgx-a100 --report %t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: cluster:        dgx-a100
// CHECK: step time:
// CHECK: devices used:   4 (2 classes of identical devices)
// CHECK: peak memory: {{.*}} of 80.00 GiB (fits)
// CHECK: devices
// CHECK-NEXT: 0,1
// CHECK-NEXT: 2,3
// CHECK: top ops by time
// CHECK-DAG: dist.all_reduce 1 x
// CHECK-DAG: dist.matmul 1 x
// CHECK-DAG: dist.relu 2 x
// CHECK-DAG: dist.send 1 x

// REPORT: "comm_bytes": 131072,
// REPORT: "devices": [
// REPORT: "id": 0,
// REPORT: "id": 3,
// REPORT: "fits": true,
// REPORT: "flops": 33619968.0,
// REPORT: "peak_memory_bytes": 393216,
// REPORT: "step_time_s":

func.func @main(%x: tensor<64x512xf16, #dist.devices<[0:2]>>,
                %w: tensor<512x256xf16, #dist.devices<[0:2]>>)
    -> tensor<64x256xf16, #dist.devices<[0:2]>> {
  %y = dist.matmul %x, %w : (tensor<64x512xf16, #dist.devices<[0:2]>>, tensor<512x256xf16, #dist.devices<[0:2]>>) -> tensor<64x256xf16, #dist.devices<[0:2]>>
  %r = dist.relu %y : (tensor<64x256xf16, #dist.devices<[0:2]>>) -> tensor<64x256xf16, #dist.devices<[0:2]>>
  %s = dist.all_reduce %r sum groups [[0, 1]] : tensor<64x256xf16, #dist.devices<[0:2]>> -> tensor<64x256xf16, #dist.devices<[0:2]>>
  %t = dist.send %s to [2:4] : tensor<64x256xf16, #dist.devices<[0:2]>> -> tensor<64x256xf16, #dist.devices<[2:4]>>
  %u = dist.relu %t : (tensor<64x256xf16, #dist.devices<[2:4]>>) -> tensor<64x256xf16, #dist.devices<[2:4]>>
  return %s : tensor<64x256xf16, #dist.devices<[0:2]>>
}
