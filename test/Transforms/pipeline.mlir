// RUN: dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=2 microbatches=2" | FileCheck %s

// Stage 0 = layers 0-1 on device 0, stage 1 = layers 2-3 on device 1: the
// input slices where it is first used, activations go forward and gradients
// backward with one send each, the loss and the weight gradients are summed
// over the microbatches (the mean losses scaled by 1/2 first), and each
// weight is updated once on its stage.

// CHECK: dist.mesh @world shape = [2] axes = ["pp"]
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: tensor<8x8xf32, #dist.devices<[0]>> {dist.name = "layers.0.weight", dist.role = "parameter"
// CHECK-SAME: tensor<8x8xf32, #dist.devices<[1]>> {dist.name = "layers.3.weight", dist.role = "parameter"
// CHECK-SAME: tensor<16x8xf32, #dist.devices<[0]>> {dist.name = "input", dist.role = "data"
// CHECK-SAME: tensor<16x8xf32, #dist.devices<[1]>> {dist.name = "target", dist.role = "data"
// CHECK-SAME: -> (tensor<f32, #dist.devices<[1]>> {dist.name = "loss", dist.role = "loss"
// CHECK-SAME: attributes {dist.mesh = @world}
// The 1/microbatches scale carries the split's mark (dist-search reads it).
// CHECK: %[[HALF:.*]] = dist.constant dense<5.000000e-01> : tensor<f32> on [1] {dist.microbatch_scale, dist.stage = 1 : i64}

// CHECK: %[[X0:.*]] = dist.slice %arg4 {dist.microbatch = 0 : i64, dist.stage = 0 : i64, limits = array<i64: 8, 8>, starts = array<i64: 0, 0>
// CHECK: dist.matmul %[[X0]], %arg0 {dist.layer = 0 : i64, dist.microbatch = 0 : i64, {{.*}}dist.stage = 0 : i64} : (tensor<8x8xf32, #dist.devices<[0]>>
// CHECK: %[[H1:.*]] = dist.relu %{{.*}} {dist.layer = 1 : i64, dist.microbatch = 0 : i64, {{.*}}dist.stage = 0 : i64}
// CHECK-NEXT: %[[S1:.*]] = dist.send %[[H1]] to [1] {dist.layer = 1 : i64, dist.microbatch = 0 : i64, dist.stage = 0 : i64} : tensor<8x8xf32, #dist.devices<[0]>> -> tensor<8x8xf32, #dist.devices<[1]>>
// CHECK: dist.matmul %[[S1]], %arg2 {dist.layer = 2 : i64, dist.microbatch = 0 : i64, {{.*}}dist.stage = 1 : i64}
// CHECK: %[[L0:.*]] = dist.mse_loss {{.*}}dist.microbatch = 0
// CHECK-NEXT: %[[SL0:.*]] = dist.mul %[[L0]], %[[HALF]]
// CHECK: %[[GW3:.*]] = dist.matmul {{.*}}dist.layer = 3 : i64, dist.microbatch = 0 : i64, dist.phase = "backward", {{.*}}dist.stage = 1 : i64, transpose_a
// CHECK: %[[G2:.*]] = dist.matmul {{.*}}dist.layer = 2 : i64, dist.microbatch = 0 : i64, dist.phase = "backward", {{.*}}dist.stage = 1 : i64, transpose_b
// CHECK-NEXT: dist.send %[[G2]] to [0] {dist.layer = 2 : i64, dist.microbatch = 0 : i64, dist.phase = "backward", dist.stage = 1 : i64}
// CHECK: %[[L1:.*]] = dist.mse_loss {{.*}}dist.microbatch = 1
// CHECK: %[[SL1:.*]] = dist.mul %[[L1]], %[[HALF]]
// CHECK: %[[LOSS:.*]] = dist.add %[[SL0]], %[[SL1]] {dist.layer = 3 : i64, dist.microbatch = 1 : i64, dist.stage = 1 : i64}
// CHECK: %[[GW3B:.*]] = dist.matmul {{.*}}dist.layer = 3 : i64, dist.microbatch = 1 : i64, dist.phase = "backward", {{.*}}dist.stage = 1 : i64, transpose_a
// CHECK-NEXT: %[[ACC3:.*]] = dist.add %[[GW3]], %[[GW3B]] {dist.layer = 3 : i64, dist.microbatch = 1 : i64, dist.phase = "backward", dist.stage = 1 : i64}
// CHECK: %[[N3:.*]] = dist.sgd_update %arg3, %[[ACC3]] {dist.layer = 3 : i64, dist.phase = "optimizer", {{.*}}dist.stage = 1 : i64
// CHECK: %[[N0:.*]] = dist.sgd_update %arg0, %{{.*}} {dist.layer = 0 : i64, dist.phase = "optimizer", {{.*}}dist.stage = 0 : i64
// CHECK-NEXT: %[[N1:.*]] = dist.sgd_update %arg1
// CHECK-NOT: dist.sgd_update
// CHECK: return %[[LOSS]], %[[N0]], %[[N1]], %{{.*}}, %[[N3]]
