// --reference: the hand-partitioned MLP (data parallel x Megatron tensor
// parallel on a 2x2 mesh) computes what the unsplit program does; a version
// that all-reduces over the wrong groups does not.
// RUN: dist-run %s --entry main --reference %S/Inputs/mlp-reference.mlir --seed 3 | FileCheck %s
// RUN: dist-run %s --entry partial_result --reference %S/Inputs/mlp-reference.mlir --seed 3 | FileCheck %s --check-prefix=PARTIAL
// RUN: not dist-run %s --entry wrong_groups --reference %S/Inputs/mlp-reference.mlir --seed 3 | FileCheck %s --check-prefix=WRONG
// Looser tolerances accept what tight ones reject.
// RUN: not dist-run %s --entry wrong_groups --reference %S/Inputs/mlp-reference.mlir --seed 3 --rtol 0 --atol 1e-9 | FileCheck %s --check-prefix=WRONG
// RUN: dist-run %s --entry wrong_groups --reference %S/Inputs/mlp-reference.mlir --seed 3 --atol 1e3 | FileCheck %s --check-prefix=LOOSE

// CHECK: y: max_abs_err={{.*}} ok
// CHECK-NEXT: loss: max_abs_err={{.*}} ok
// CHECK-NEXT: overall: max_abs_err={{.*}} rtol=0.0001 atol=1e-05: PASS

// PARTIAL: y: max_abs_err={{.*}} ok
// PARTIAL: overall: {{.*}}: PASS

// WRONG: y: max_abs_err={{.*}} MISMATCH ({{[0-9]+}} of 32 elements outside rtol/atol)
// WRONG: overall: {{.*}}: FAIL

// LOOSE: overall: {{.*}} atol=1000: PASS

// Device d = 2 dp + tp. x and target split their batch over dp; w1 is split
// by columns and w2 by rows over tp, so the second matmul leaves partial sums
// that an all-reduce inside each tp group ([[0, 1], [2, 3]]) completes. The
// loss is a mean over the local batch, averaged over dp ([[0, 2], [1, 3]]).
dist.mesh @mesh shape = [2, 2] axes = ["dp", "tp"]

func.func @main(
    %x: tensor<2x8xf32, #dist.devices<[0:4]>> {dist.name = "x", dist.sharding = #dist.sharding<@mesh, [["dp"], []]>},
    %w1: tensor<8x3xf32, #dist.devices<[0:4]>> {dist.name = "w1", dist.sharding = #dist.sharding<@mesh, [[], ["tp"]]>},
    %w2: tensor<3x8xf32, #dist.devices<[0:4]>> {dist.name = "w2", dist.sharding = #dist.sharding<@mesh, [["tp"], []]>},
    %target: tensor<2x8xf32, #dist.devices<[0:4]>> {dist.name = "target", dist.sharding = #dist.sharding<@mesh, [["dp"], []]>})
    -> (tensor<2x8xf32, #dist.devices<[0:4]>> {dist.name = "y", dist.sharding = #dist.sharding<@mesh, [["dp"], []]>},
        tensor<f32, #dist.devices<[0:4]>> {dist.name = "loss"}) attributes {dist.mesh = @mesh} {
  %h = dist.matmul %x, %w1 : (tensor<2x8xf32, #dist.devices<[0:4]>>, tensor<8x3xf32, #dist.devices<[0:4]>>) -> tensor<2x3xf32, #dist.devices<[0:4]>>
  %r = dist.relu %h : (tensor<2x3xf32, #dist.devices<[0:4]>>) -> tensor<2x3xf32, #dist.devices<[0:4]>>
  %partial = dist.matmul %r, %w2 : (tensor<2x3xf32, #dist.devices<[0:4]>>, tensor<3x8xf32, #dist.devices<[0:4]>>) -> tensor<2x8xf32, #dist.devices<[0:4]>>
  %y = dist.all_reduce %partial sum groups [[0, 1], [2, 3]] : tensor<2x8xf32, #dist.devices<[0:4]>> -> tensor<2x8xf32, #dist.devices<[0:4]>>
  %local = dist.mse_loss %y, %target : (tensor<2x8xf32, #dist.devices<[0:4]>>, tensor<2x8xf32, #dist.devices<[0:4]>>) -> tensor<f32, #dist.devices<[0:4]>>
  %loss = dist.all_reduce %local avg groups [[0, 2], [1, 3]] : tensor<f32, #dist.devices<[0:4]>> -> tensor<f32, #dist.devices<[0:4]>>
  return %y, %loss : tensor<2x8xf32, #dist.devices<[0:4]>>, tensor<f32, #dist.devices<[0:4]>>
}

// The same without the all-reduce: y is returned as a pending partial sum
// over tp, which the global view adds up. The loss is left replicated (it
// is computed from the completed sum of a second copy).
func.func @partial_result(
    %x: tensor<2x8xf32, #dist.devices<[0:4]>> {dist.name = "x", dist.sharding = #dist.sharding<@mesh, [["dp"], []]>},
    %w1: tensor<8x3xf32, #dist.devices<[0:4]>> {dist.name = "w1", dist.sharding = #dist.sharding<@mesh, [[], ["tp"]]>},
    %w2: tensor<3x8xf32, #dist.devices<[0:4]>> {dist.name = "w2", dist.sharding = #dist.sharding<@mesh, [["tp"], []]>},
    %target: tensor<2x8xf32, #dist.devices<[0:4]>> {dist.name = "target", dist.sharding = #dist.sharding<@mesh, [["dp"], []]>})
    -> (tensor<2x8xf32, #dist.devices<[0:4]>> {dist.name = "y", dist.sharding = #dist.sharding<@mesh, [["dp"], []], partial = ["tp"]>},
        tensor<f32, #dist.devices<[0:4]>> {dist.name = "loss"}) attributes {dist.mesh = @mesh} {
  %h = dist.matmul %x, %w1 : (tensor<2x8xf32, #dist.devices<[0:4]>>, tensor<8x3xf32, #dist.devices<[0:4]>>) -> tensor<2x3xf32, #dist.devices<[0:4]>>
  %r = dist.relu %h : (tensor<2x3xf32, #dist.devices<[0:4]>>) -> tensor<2x3xf32, #dist.devices<[0:4]>>
  %partial = dist.matmul %r, %w2 : (tensor<2x3xf32, #dist.devices<[0:4]>>, tensor<3x8xf32, #dist.devices<[0:4]>>) -> tensor<2x8xf32, #dist.devices<[0:4]>>
  %y = dist.all_reduce %partial sum groups [[0, 1], [2, 3]] : tensor<2x8xf32, #dist.devices<[0:4]>> -> tensor<2x8xf32, #dist.devices<[0:4]>>
  %local = dist.mse_loss %y, %target : (tensor<2x8xf32, #dist.devices<[0:4]>>, tensor<2x8xf32, #dist.devices<[0:4]>>) -> tensor<f32, #dist.devices<[0:4]>>
  %loss = dist.all_reduce %local avg groups [[0, 2], [1, 3]] : tensor<f32, #dist.devices<[0:4]>> -> tensor<f32, #dist.devices<[0:4]>>
  return %partial, %loss : tensor<2x8xf32, #dist.devices<[0:4]>>, tensor<f32, #dist.devices<[0:4]>>
}

// Wrong: the partial sums are added across dp instead of tp. The replicas of
// y still agree inside each tp group, but the values are not the product.
func.func @wrong_groups(
    %x: tensor<2x8xf32, #dist.devices<[0:4]>> {dist.name = "x", dist.sharding = #dist.sharding<@mesh, [["dp"], []]>},
    %w1: tensor<8x3xf32, #dist.devices<[0:4]>> {dist.name = "w1", dist.sharding = #dist.sharding<@mesh, [[], ["tp"]]>},
    %w2: tensor<3x8xf32, #dist.devices<[0:4]>> {dist.name = "w2", dist.sharding = #dist.sharding<@mesh, [["tp"], []]>},
    %target: tensor<2x8xf32, #dist.devices<[0:4]>> {dist.name = "target", dist.sharding = #dist.sharding<@mesh, [["dp"], []]>})
    -> (tensor<2x8xf32, #dist.devices<[0:4]>> {dist.name = "y", dist.sharding = #dist.sharding<@mesh, [["dp"], []], partial = ["tp"]>},
        tensor<f32, #dist.devices<[0:4]>> {dist.name = "loss"}) attributes {dist.mesh = @mesh} {
  %h = dist.matmul %x, %w1 : (tensor<2x8xf32, #dist.devices<[0:4]>>, tensor<8x3xf32, #dist.devices<[0:4]>>) -> tensor<2x3xf32, #dist.devices<[0:4]>>
  %r = dist.relu %h : (tensor<2x3xf32, #dist.devices<[0:4]>>) -> tensor<2x3xf32, #dist.devices<[0:4]>>
  %partial = dist.matmul %r, %w2 : (tensor<2x3xf32, #dist.devices<[0:4]>>, tensor<3x8xf32, #dist.devices<[0:4]>>) -> tensor<2x8xf32, #dist.devices<[0:4]>>
  %y = dist.all_reduce %partial sum groups [[0, 2], [1, 3]] : tensor<2x8xf32, #dist.devices<[0:4]>> -> tensor<2x8xf32, #dist.devices<[0:4]>>
  %yy = dist.all_reduce %partial sum groups [[0, 1], [2, 3]] : tensor<2x8xf32, #dist.devices<[0:4]>> -> tensor<2x8xf32, #dist.devices<[0:4]>>
  %local = dist.mse_loss %yy, %target : (tensor<2x8xf32, #dist.devices<[0:4]>>, tensor<2x8xf32, #dist.devices<[0:4]>>) -> tensor<f32, #dist.devices<[0:4]>>
  %loss = dist.all_reduce %local avg groups [[0, 2], [1, 3]] : tensor<f32, #dist.devices<[0:4]>> -> tensor<f32, #dist.devices<[0:4]>>
  return %y, %loss : tensor<2x8xf32, #dist.devices<[0:4]>>, tensor<f32, #dist.devices<[0:4]>>
}
