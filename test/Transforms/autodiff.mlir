// RUN: dist-opt %s -split-input-file '--dist-autodiff=optimizer=sgd lr=0.5' | FileCheck %s
// RUN: dist-opt %s -split-input-file --dist-autodiff=optimizer=adam | FileCheck %s --check-prefix=ADAM
// RUN: dist-opt %s -split-input-file --dist-autodiff=optimizer=none | FileCheck %s --check-prefix=NONE
// RUN: dist-opt %s -split-input-file '--dist-autodiff=optimizer=adam lr=0.25 beta1=0.5 beta2=0.75 epsilon=0.125' | FileCheck %s --check-prefix=ADAM-OPTIONS

// A dense layer with a broadcast bias, then tanh(y) * y: the bias gradient
// is summed over the broadcast batch dimension, and y (used twice) gets the
// sum of both gradients.

// CHECK-LABEL: func.func @linear(
// CHECK-SAME: %[[W:.*]]: tensor<4x3xf32> {dist.name = "w", dist.role = "parameter"}, %[[B:.*]]: tensor<3xf32> {dist.name = "b", dist.role = "parameter"}, %[[X:.*]]: tensor<2x4xf32> {dist.name = "x", dist.role = "data"}, %[[T:.*]]: tensor<2x3xf32> {dist.name = "t", dist.role = "data"})
// CHECK-SAME: -> (tensor<f32> {dist.name = "loss", dist.role = "loss"}, tensor<4x3xf32> {dist.name = "w", dist.role = "updated_parameter"}, tensor<3xf32> {dist.name = "b", dist.role = "updated_parameter"})
// CHECK: %[[H:.*]] = dist.matmul %[[X]], %[[W]] {dist.layer = 0 : i64, dist.phase = "forward"}
// CHECK: %[[Y:.*]] = dist.add %[[H]], %[[B]] {dist.layer = 0 : i64, dist.phase = "forward"}
// CHECK: %[[Z:.*]] = dist.tanh %[[Y]] {dist.layer = 1 : i64, dist.phase = "forward"}
// CHECK: %[[S:.*]] = dist.mul %[[Z]], %[[Y]] {dist.layer = 1 : i64, dist.phase = "forward"}
// CHECK: %[[LOSS:.*]] = dist.mse_loss %[[S]], %[[T]] {dist.layer = 1 : i64, dist.phase = "forward"}
// CHECK: %[[ONE:.*]] = dist.constant dense<1.000000e+00> : tensor<f32> {dist.layer = 1 : i64, dist.phase = "backward"}
// CHECK: %[[DS:.*]] = dist.mse_loss_grad %[[ONE]], %[[S]], %[[T]] {dist.layer = 1 : i64, dist.phase = "backward"}
// CHECK: %[[DZ:.*]] = dist.mul %[[DS]], %[[Y]] {dist.layer = 1 : i64, dist.phase = "backward"}
// CHECK: %[[DY1:.*]] = dist.mul %[[DS]], %[[Z]] {dist.layer = 1 : i64, dist.phase = "backward"}
// CHECK: %[[DY2:.*]] = dist.tanh_grad %[[DZ]], %[[Z]] {dist.layer = 1 : i64, dist.phase = "backward"}
// CHECK: %[[DY:.*]] = dist.add %[[DY1]], %[[DY2]] {dist.layer = 1 : i64, dist.phase = "backward"}
// CHECK: %[[DB:.*]] = dist.reduce_sum %[[DY]] {axes = array<i64: 0>, dist.layer = 0 : i64, dist.phase = "backward"} : (tensor<2x3xf32>) -> tensor<3xf32>
// The input needs no gradient: only the weight's is built.
// CHECK-NOT: transpose_b
// CHECK: %[[DW:.*]] = dist.matmul %[[X]], %[[DY]] {dist.layer = 0 : i64, dist.phase = "backward", transpose_a} : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[NW:.*]] = dist.sgd_update %[[W]], %[[DW]] {dist.layer = 0 : i64, dist.phase = "optimizer", lr = 5.000000e-01 : f64}
// CHECK: %[[NB:.*]] = dist.sgd_update %[[B]], %[[DB]] {dist.layer = 0 : i64, dist.phase = "optimizer", lr = 5.000000e-01 : f64}
// CHECK: return %[[LOSS]], %[[NW]], %[[NB]] : tensor<f32>, tensor<4x3xf32>, tensor<3xf32>

// Adam: moments per parameter after the parameters, one f32 step, then the
// data; the updated state follows the updated parameters.
// ADAM-LABEL: func.func @linear(
// ADAM-SAME: %[[W:[^:]*]]: tensor<4x3xf32> {dist.name = "w", dist.role = "parameter"}, %[[B:[^:]*]]: tensor<3xf32> {dist.name = "b", dist.role = "parameter"},
// ADAM-SAME: %[[WM:[^:]*]]: tensor<4x3xf32> {dist.name = "w.adam_m", dist.role = "optimizer_state"}, %[[WV:[^:]*]]: tensor<4x3xf32> {dist.name = "w.adam_v", dist.role = "optimizer_state"},
// ADAM-SAME: %[[BM:[^:]*]]: tensor<3xf32> {dist.name = "b.adam_m", dist.role = "optimizer_state"}, %[[BV:[^:]*]]: tensor<3xf32> {dist.name = "b.adam_v", dist.role = "optimizer_state"},
// ADAM-SAME: %[[STEP:[^:]*]]: tensor<f32> {dist.name = "adam.step", dist.role = "optimizer_state"},
// ADAM-SAME: %{{[^:]*}}: tensor<2x4xf32> {dist.name = "x", dist.role = "data"}, %{{[^:]*}}: tensor<2x3xf32> {dist.name = "t", dist.role = "data"})
// ADAM-SAME: -> (tensor<f32> {dist.name = "loss", dist.role = "loss"}, tensor<4x3xf32> {dist.name = "w", dist.role = "updated_parameter"}, tensor<3xf32> {dist.name = "b", dist.role = "updated_parameter"},
// ADAM-SAME: tensor<4x3xf32> {dist.name = "w.adam_m", dist.role = "updated_optimizer_state"}, tensor<4x3xf32> {dist.name = "w.adam_v", dist.role = "updated_optimizer_state"},
// ADAM-SAME: tensor<3xf32> {dist.name = "b.adam_m", dist.role = "updated_optimizer_state"}, tensor<3xf32> {dist.name = "b.adam_v", dist.role = "updated_optimizer_state"},
// ADAM-SAME: tensor<f32> {dist.name = "adam.step", dist.role = "updated_optimizer_state"})
// ADAM: %[[NW:[^,]*]], %[[NWM:[^,]*]], %[[NWV:[^ ]*]] = dist.adam_update %[[W]], %{{.*}}, %[[WM]], %[[WV]], %[[STEP]] {dist.layer = 0 : i64, dist.phase = "optimizer", lr = 1.000000e-03 : f64}
// ADAM: %[[NB:[^,]*]], %[[NBM:[^,]*]], %[[NBV:[^ ]*]] = dist.adam_update %[[B]], %{{.*}}, %[[BM]], %[[BV]], %[[STEP]] {dist.layer = 0 : i64, dist.phase = "optimizer", lr = 1.000000e-03 : f64}
// ADAM: %[[ONE:.*]] = dist.constant dense<1.000000e+00> : tensor<f32> {dist.phase = "optimizer"}
// ADAM: %[[NSTEP:.*]] = dist.add %[[STEP]], %[[ONE]] {dist.phase = "optimizer"}
// ADAM: return %{{.*}}, %[[NW]], %[[NB]], %[[NWM]], %[[NWV]], %[[NBM]], %[[NBV]], %[[NSTEP]] :

// ADAM-OPTIONS-LABEL: func.func @linear(
// ADAM-OPTIONS: dist.adam_update {{.*}} {beta1 = 5.000000e-01 : f64, beta2 = 7.500000e-01 : f64, dist.layer = 0 : i64, dist.phase = "optimizer", epsilon = 1.250000e-01 : f64, lr = 2.500000e-01 : f64}

// optimizer=none returns the gradients.
// NONE-LABEL: func.func @linear(
// NONE-SAME: -> (tensor<f32> {dist.name = "loss", dist.role = "loss"}, tensor<4x3xf32> {dist.name = "w.grad", dist.role = "gradient"}, tensor<3xf32> {dist.name = "b.grad", dist.role = "gradient"})
// NONE-NOT: sgd_update
// NONE: %[[DB:.*]] = dist.reduce_sum
// NONE: %[[DW:.*]] = dist.matmul
// NONE: return %{{.*}}, %[[DW]], %[[DB]] : tensor<f32>, tensor<4x3xf32>, tensor<3xf32>
func.func @linear(%w: tensor<4x3xf32> {dist.name = "w", dist.role = "parameter"},
                  %b: tensor<3xf32> {dist.name = "b", dist.role = "parameter"},
                  %x: tensor<2x4xf32> {dist.name = "x", dist.role = "data"},
                  %t: tensor<2x3xf32> {dist.name = "t", dist.role = "data"}) -> tensor<f32> {
  %h = dist.matmul %x, %w {dist.layer = 0 : i64} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = dist.add %h, %b {dist.layer = 0 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %z = dist.tanh %y {dist.layer = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = dist.mul %z, %y {dist.layer = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %l = dist.mse_loss %s, %t {dist.layer = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// An embedding: integer indices get no gradient, the table's is a
// scatter-add; a parameter the loss does not use gets zeros; other results
// stay after the training-step results. The loss is found by its role.

// NONE-LABEL: func.func @embed(
// NONE-SAME: %[[TABLE:[^:]*]]: tensor<10x4xf32> {dist.name = "table", dist.role = "parameter"}, %[[SCALE:[^:]*]]: tensor<4xf32> {dist.name = "scale", dist.role = "parameter"}, %{{[^:]*}}: tensor<3xf32> {dist.name = "unused", dist.role = "parameter"},
// NONE-SAME: %[[IDS:[^:]*]]: tensor<2x3xi64> {dist.bound = 10 : i64, dist.name = "ids", dist.role = "data"}, %[[LABELS:[^:]*]]: tensor<2xi64> {dist.name = "labels", dist.role = "data"})
// NONE-SAME: -> (tensor<f32> {dist.name = "loss", dist.role = "loss"}, tensor<10x4xf32> {dist.name = "table.grad", dist.role = "gradient"}, tensor<4xf32> {dist.name = "scale.grad", dist.role = "gradient"}, tensor<3xf32> {dist.name = "unused.grad", dist.role = "gradient"}, tensor<2x3x4xf32> {dist.name = "features", dist.role = "output"})
// NONE: %[[E:.*]] = dist.take %[[TABLE]], %[[IDS]]
// NONE: %[[P:.*]] = dist.reduce_sum
// NONE: %[[LOSS:.*]] = dist.cross_entropy %[[P]], %[[LABELS]]
// NONE: %[[DP:.*]] = dist.cross_entropy_grad %{{.*}}, %[[P]], %[[LABELS]] {dist.layer = 1 : i64, dist.phase = "backward"} : (tensor<f32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
// The reduction's gradient is spread back over the reduced axis.
// NONE: %[[DP3:.*]] = dist.reshape %[[DP]] {dist.layer = 1 : i64, dist.phase = "backward", shape = array<i64: 2, 1, 4>}
// NONE: %[[DM:.*]] = dist.expand %[[DP3]] {dist.layer = 1 : i64, dist.phase = "backward", shape = array<i64: 2, 3, 4>}
// NONE: %[[DE:.*]] = dist.mul %[[DM]], %[[SCALE]]
// NONE: %[[DSCALE0:.*]] = dist.mul %[[DM]], %[[E]]
// NONE: %[[DSCALE:.*]] = dist.reduce_sum %[[DSCALE0]] {axes = array<i64: 0, 1>, dist.layer = 0 : i64, dist.phase = "backward"} : (tensor<2x3x4xf32>) -> tensor<4xf32>
// NONE: %[[DTABLE:.*]] = dist.take_grad %[[DE]], %[[IDS]] {dim_size = 10 : i64, dist.layer = 0 : i64, dist.phase = "backward"} : (tensor<2x3x4xf32>, tensor<2x3xi64>) -> tensor<10x4xf32>
// NONE: %[[ZERO:.*]] = dist.constant dense<0.000000e+00> : tensor<3xf32> {dist.phase = "backward"}
// NONE: return %[[LOSS]], %[[DTABLE]], %[[DSCALE]], %[[ZERO]], %[[E]]
func.func @embed(%table: tensor<10x4xf32> {dist.name = "table", dist.role = "parameter"},
                 %scale: tensor<4xf32> {dist.name = "scale", dist.role = "parameter"},
                 %unused: tensor<3xf32> {dist.name = "unused", dist.role = "parameter"},
                 %ids: tensor<2x3xi64> {dist.name = "ids", dist.role = "data", dist.bound = 10 : i64},
                 %labels: tensor<2xi64> {dist.name = "labels", dist.role = "data"})
    -> (tensor<2x3x4xf32> {dist.name = "features", dist.role = "output"}, tensor<f32> {dist.role = "loss"}) {
  %e = dist.take %table, %ids {dist.layer = 0 : i64} : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %m = dist.mul %e, %scale {dist.layer = 0 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %p = dist.reduce_sum %m {axes = array<i64: 1>, dist.layer = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %l = dist.cross_entropy %p, %labels {dist.layer = 1 : i64} : (tensor<2x4xf32>, tensor<2xi64>) -> tensor<f32>
  return %e, %l : tensor<2x3x4xf32>, tensor<f32>
}

// -----

// A placed program: the gradient of send is a send back, of all_gather a
// reduce_scatter, of all_reduce(sum) an all_reduce; constants are placed.

// CHECK-LABEL: func.func @placed(
// CHECK-SAME: %[[W:[^:]*]]: tensor<4x4xf32, #dist.devices<[0:2]>> {dist.name = "w", dist.role = "parameter"}, %[[X:[^:]*]]: tensor<2x4xf32, #dist.devices<[0:2]>>
// CHECK-SAME: -> (tensor<f32, #dist.devices<[2:4]>> {dist.name = "loss", dist.role = "loss"}, tensor<4x4xf32, #dist.devices<[0:2]>> {dist.name = "w", dist.role = "updated_parameter"})
// CHECK: %[[ONE:.*]] = dist.constant dense<1.000000e+00> : tensor<f32> on [2:4] {dist.phase = "backward"}
// CHECK: %[[R:.*]] = dist.reshape %[[ONE]] {{.*}} -> tensor<1x1xf32, #dist.devices<[2:4]>>
// CHECK: %[[EX:.*]] = dist.expand %[[R]] {{.*}} -> tensor<4x4xf32, #dist.devices<[2:4]>>
// CHECK: %[[N:.*]] = dist.constant dense<6.250000e-02> : tensor<f32> on [2:4]
// CHECK: %[[DT:.*]] = dist.mul %[[EX]], %[[N]]
// CHECK: %[[DG:.*]] = dist.send %[[DT]] to [0:2] {dist.phase = "backward"} : tensor<4x4xf32, #dist.devices<[2:4]>> -> tensor<4x4xf32, #dist.devices<[0:2]>>
// CHECK: %[[DS:.*]] = dist.reduce_scatter %[[DG]] sum dim 0 groups {{\[\[}}0:2]] {dist.phase = "backward"} : tensor<4x4xf32, #dist.devices<[0:2]>> -> tensor<2x4xf32, #dist.devices<[0:2]>>
// CHECK: %[[DH:.*]] = dist.all_reduce %[[DS]] sum groups {{\[\[}}0:2]] {dist.phase = "backward"}
// CHECK: %[[DW:.*]] = dist.matmul %[[X]], %[[DH]] {dist.phase = "backward", transpose_a}
// CHECK: dist.sgd_update %[[W]], %[[DW]] {dist.phase = "optimizer", lr = 5.000000e-01 : f64} : (tensor<4x4xf32, #dist.devices<[0:2]>>, tensor<4x4xf32, #dist.devices<[0:2]>>) -> tensor<4x4xf32, #dist.devices<[0:2]>>

// Adam state is placed like the parameters.
// ADAM-LABEL: func.func @placed(
// ADAM-SAME: tensor<4x4xf32, #dist.devices<[0:2]>> {dist.name = "w.adam_m", dist.role = "optimizer_state"}, %{{[^:]*}}: tensor<4x4xf32, #dist.devices<[0:2]>> {dist.name = "w.adam_v", dist.role = "optimizer_state"}, %{{[^:]*}}: tensor<f32, #dist.devices<[0:2]>> {dist.name = "adam.step", dist.role = "optimizer_state"}
// ADAM: dist.constant dense<1.000000e+00> : tensor<f32> on [0:2] {dist.phase = "optimizer"}
dist.mesh @world shape = [4] axes = ["d"]
func.func @placed(%w: tensor<4x4xf32, #dist.devices<[0:2]>> {dist.name = "w", dist.role = "parameter"},
                  %x: tensor<2x4xf32, #dist.devices<[0:2]>> {dist.name = "x", dist.role = "data"})
    -> tensor<f32, #dist.devices<[2:4]>> attributes {dist.mesh = @world} {
  %h = dist.matmul %x, %w : (tensor<2x4xf32, #dist.devices<[0:2]>>, tensor<4x4xf32, #dist.devices<[0:2]>>) -> tensor<2x4xf32, #dist.devices<[0:2]>>
  %s = dist.all_reduce %h sum groups [[0, 1]] : tensor<2x4xf32, #dist.devices<[0:2]>> -> tensor<2x4xf32, #dist.devices<[0:2]>>
  %g = dist.all_gather %s dim 0 groups [[0, 1]] : tensor<2x4xf32, #dist.devices<[0:2]>> -> tensor<4x4xf32, #dist.devices<[0:2]>>
  %t = dist.send %g to [2:4] : tensor<4x4xf32, #dist.devices<[0:2]>> -> tensor<4x4xf32, #dist.devices<[2:4]>>
  %r = dist.reduce_mean %t {axes = array<i64: 0, 1>} : (tensor<4x4xf32, #dist.devices<[2:4]>>) -> tensor<f32, #dist.devices<[2:4]>>
  return %r : tensor<f32, #dist.devices<[2:4]>>
}
