// RUN: dist-gen mlp --layers 3 --hidden 16 --batch 8 --input-dim 4 | FileCheck %s
// RUN: dist-gen mlp --layers 3 --hidden 16 --batch 8 --input-dim 4 | dist-opt | FileCheck %s
// RUN: dist-gen mlp --layers 2 --hidden 8 --batch 2 --dtype bf16 | FileCheck %s --check-prefix=BF16
// RUN: dist-gen mlp --layers 1 --hidden 8 --batch 2 -o %t.mlir && FileCheck %s --check-prefix=FILE < %t.mlir

// Parameters first (one weight per layer, no biases), then the data; one
// scalar loss result.
// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: %[[W0:.*]]: tensor<4x16xf32> {dist.name = "layers.0.weight", dist.role = "parameter"}
// CHECK-SAME: %[[W1:.*]]: tensor<16x16xf32> {dist.name = "layers.1.weight", dist.role = "parameter"}
// CHECK-SAME: %[[W2:.*]]: tensor<16x16xf32> {dist.name = "layers.2.weight", dist.role = "parameter"}
// CHECK-SAME: %[[X:.*]]: tensor<8x4xf32> {dist.name = "input", dist.role = "data"}
// CHECK-SAME: %[[T:.*]]: tensor<8x16xf32> {dist.name = "target", dist.role = "data"}
// CHECK-SAME: -> (tensor<f32> {dist.name = "loss", dist.role = "loss"})

// Every op carries its layer; the loss belongs to the last layer.
// CHECK: %[[M0:.*]] = dist.matmul %[[X]], %[[W0]] {dist.layer = 0 : i64} : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK: %[[R0:.*]] = dist.relu %[[M0]] {dist.layer = 0 : i64}
// CHECK: %[[M1:.*]] = dist.matmul %[[R0]], %[[W1]] {dist.layer = 1 : i64}
// CHECK: %[[R1:.*]] = dist.relu %[[M1]] {dist.layer = 1 : i64}
// CHECK: %[[M2:.*]] = dist.matmul %[[R1]], %[[W2]] {dist.layer = 2 : i64}
// CHECK: %[[R2:.*]] = dist.relu %[[M2]] {dist.layer = 2 : i64}
// CHECK: %[[L:.*]] = dist.mse_loss %[[R2]], %[[T]] {dist.layer = 2 : i64} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<f32>
// CHECK-NEXT: return %[[L]] : tensor<f32>

// BF16: func.func @mlp(%{{.*}}: tensor<8x8xbf16> {{.*}} -> (tensor<bf16> {{.*}})
// BF16: dist.mse_loss {{.*}} -> tensor<bf16>

// FILE: func.func @mlp(
