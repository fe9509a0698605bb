// Data parallelism on dist-gen's MLP training step: the batch is split over
// dp, activations follow, weight gradients (contractions over the batch) are
// partial sums that are all-reduced over the dp groups only, right before
// the optimizer; the loss (a mean over the split batch) is rescaled and
// reduced. On a dp x tp mesh, the dp groups are {0, 2} and {1, 3}.

// RUN: dist-gen mlp --layers 2 --hidden 8 --batch 8 | dist-opt --dist-autodiff=optimizer=sgd -o %t.train.mlir
// RUN: dist-opt %t.train.mlir --dist-data-parallel=dp=2 -o %t.dp.mlir
// RUN: FileCheck %s --check-prefix=DP --implicit-check-not=dist.all_gather --implicit-check-not=dist.reduce_scatter < %t.dp.mlir
// RUN: dist-run %t.dp.mlir --reference %t.train.mlir --seed 1 | FileCheck %s --check-prefix=EXEC

// RUN: sed -e '1a dist.mesh @world shape = [2, 2] axes = ["dp", "tp"]' %t.train.mlir | dist-opt --dist-data-parallel -o %t.dp2.mlir
// RUN: FileCheck %s --check-prefix=GROUPS < %t.dp2.mlir
// RUN: dist-run %t.dp2.mlir --reference %t.train.mlir --seed 2 | FileCheck %s --check-prefix=EXEC

// RUN: dist-opt %t.train.mlir --dist-data-parallel="dp=2 annotate-only" | FileCheck %s --check-prefix=ANNOTATE

// EXEC: overall: {{.*}}: PASS

// DP: dist.mesh @world shape = [2] axes = ["dp"]
// DP-LABEL: func.func @mlp(
// DP-SAME: tensor<8x8xf32, #dist.devices<[0:2]>> {dist.name = "layers.0.weight", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[}}], []]>}
// DP-SAME: tensor<4x8xf32, #dist.devices<[0:2]>> {dist.name = "input", dist.role = "data", dist.sharding = #dist.sharding<@world, {{\[\[}}"dp"], []]>}
// DP-SAME: -> (tensor<f32, #dist.devices<[0:2]>> {dist.name = "loss", dist.role = "loss", dist.sharding = #dist.sharding<@world, []>}
// DP: %[[LOSS:.*]] = dist.mse_loss {{.*}} partial = ["dp"]>} : (tensor<4x8xf32
// The local mean is over half the batch: scaled by 1/2 to be a partial sum.
// DP: %[[HALF:.*]] = dist.constant dense<5.000000e-01> : tensor<f32> on [0:2]
// DP: %[[SCALED:.*]] = dist.mul %[[LOSS]], %[[HALF]]
// DP: %[[DW1:.*]] = dist.matmul {{.*}} {dist.layer = 1 : i64, dist.phase = "backward", dist.sharding = #dist.sharding<@world, {{\[\[}}], []], partial = ["dp"]>, transpose_a}
// DP: %[[DW0:.*]] = dist.matmul {{.*}} {dist.layer = 0 : i64, dist.phase = "backward", dist.sharding = #dist.sharding<@world, {{\[\[}}], []], partial = ["dp"]>, transpose_a}
// DP: %[[G0:.*]] = dist.all_reduce %[[DW0]] sum groups {{\[\[}}0:2]]
// DP: dist.sgd_update %arg0, %[[G0]]
// DP: %[[G1:.*]] = dist.all_reduce %[[DW1]] sum groups {{\[\[}}0:2]]
// DP: dist.sgd_update %arg1, %[[G1]]
// DP: %[[L:.*]] = dist.all_reduce %[[SCALED]] sum groups {{\[\[}}0:2]]
// DP: return %[[L]]

// GROUPS-LABEL: func.func @mlp(
// GROUPS-COUNT-3: dist.all_reduce {{.*}} groups {{\[\[}}0, 2], [1, 3]]
// GROUPS-NOT: dist.all_
// GROUPS: return

// ANNOTATE-NOT: dist.devices
// ANNOTATE: dist.name = "input", dist.role = "data", dist.sharding = #dist.sharding<@world, {{\[\[}}"dp"], []]>
// ANNOTATE: dist.matmul
// ANNOTATE-NOT: dist.sharding
// ANNOTATE: return
