// Tensor parallelism without names Megatron's layouts know (an imported
// model): the column / row pairs are found by structure. q, k and v join the
// attention's group (the score matmul needs q and k split alike by heads),
// the output projection contracts the heads (row); fc1 and its bias are
// column-parallel up to fc2 (row), through x * x; a projection into a layer
// norm over its columns stays replicated.

// RUN: dist-opt %s --dist-autodiff=optimizer=adam -o %t.train.mlir
// RUN: dist-opt %t.train.mlir --dist-tensor-parallel=tp=2 -o %t.tp.mlir
// RUN: FileCheck %s < %t.tp.mlir
// CHECK-LABEL: func.func @block
// CHECK-SAME: dist.name = "onnx::MatMul_1", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[\], \["tp"\]\]}}>
// CHECK-SAME: dist.name = "onnx::MatMul_2", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[\], \["tp"\]\]}}>
// CHECK-SAME: dist.name = "onnx::MatMul_3", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[\], \["tp"\]\]}}>
// CHECK-SAME: dist.name = "q.bias", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\["tp"\]\]}}>
// CHECK-SAME: dist.name = "onnx::MatMul_4", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\["tp"\], \[\]\]}}>
// CHECK-SAME: dist.name = "onnx::MatMul_5", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[\], \["tp"\]\]}}>
// CHECK-SAME: dist.name = "fc1.bias", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\["tp"\]\]}}>
// CHECK-SAME: dist.name = "onnx::MatMul_6", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\["tp"\], \[\]\]}}>
// CHECK-SAME: dist.name = "onnx::MatMul_7", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[\], \[\]\]}}>
// The optimizer states follow their parameter by name.
// CHECK-SAME: dist.name = "onnx::MatMul_1.adam_m", dist.role = "optimizer_state", dist.sharding = #dist.sharding<@world, {{\[\[\], \["tp"\]\]}}>
// Forward: one all_reduce after each row-parallel matmul.
// CHECK: dist.matmul {{.*}}dist.phase = "forward", dist.sharding = #dist.sharding<@world, {{\[\[\], \[\], \[\]\]}}, partial = {{\["tp"\]}}>} : (tensor<4x2x4xf32
// CHECK-NEXT: dist.all_reduce
// CHECK: dist.matmul {{.*}}dist.phase = "forward", dist.sharding = #dist.sharding<@world, {{\[\[\], \[\], \[\]\]}}, partial = {{\["tp"\]}}>} : (tensor<4x2x8xf32
// CHECK-NEXT: dist.all_reduce
// CHECK-NOT: dist.all_gather

// Exact: the tp=2 step computes the unsplit one.
// RUN: dist-run %t.tp.mlir --reference %t.train.mlir | FileCheck %s --check-prefix=SAME
// SAME: overall: {{.*}}PASS

// A layout map stays the override: this one splits only fc1 / fc2.
// RUN: echo '{"MatMul_5": [null, "tp"], "MatMul_6": ["tp", null]}' > %t.map.json
// RUN: dist-opt %t.train.mlir "--dist-tensor-parallel=tp=2 layout-map=%t.map.json" | FileCheck %s --check-prefix=MAP
// MAP: dist.name = "onnx::MatMul_1", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[\], \[\]\]}}>

func.func @block(%x: tensor<4x2x8xf32> {dist.role = "data", dist.name = "x"},
                 %target: tensor<4x2x8xf32> {dist.role = "data", dist.name = "target"},
                 %wq: tensor<8x8xf32> {dist.role = "parameter", dist.name = "onnx::MatMul_1"},
                 %wk: tensor<8x8xf32> {dist.role = "parameter", dist.name = "onnx::MatMul_2"},
                 %wv: tensor<8x8xf32> {dist.role = "parameter", dist.name = "onnx::MatMul_3"},
                 %bq: tensor<8xf32> {dist.role = "parameter", dist.name = "q.bias"},
                 %wo: tensor<8x8xf32> {dist.role = "parameter", dist.name = "onnx::MatMul_4"},
                 %w1: tensor<8x16xf32> {dist.role = "parameter", dist.name = "onnx::MatMul_5"},
                 %b1: tensor<16xf32> {dist.role = "parameter", dist.name = "fc1.bias"},
                 %w2: tensor<16x8xf32> {dist.role = "parameter", dist.name = "onnx::MatMul_6"},
                 %w3: tensor<8x8xf32> {dist.role = "parameter", dist.name = "onnx::MatMul_7"},
                 %g: tensor<8xf32> {dist.role = "parameter", dist.name = "norm.weight"},
                 %beta: tensor<8xf32> {dist.role = "parameter", dist.name = "norm.bias"}) -> (tensor<f32> {dist.role = "loss"}) {
  // Attention, 2 heads of 4: q, k, v column-parallel, the output row-parallel.
  %q0 = dist.matmul %x, %wq : (tensor<4x2x8xf32>, tensor<8x8xf32>) -> tensor<4x2x8xf32>
  %q1 = dist.add %q0, %bq : (tensor<4x2x8xf32>, tensor<8xf32>) -> tensor<4x2x8xf32>
  %q2 = dist.reshape %q1 {shape = array<i64: 4, 2, 2, 4>} : (tensor<4x2x8xf32>) -> tensor<4x2x2x4xf32>
  %q = dist.transpose %q2 {permutation = array<i64: 0, 2, 1, 3>} : (tensor<4x2x2x4xf32>) -> tensor<4x2x2x4xf32>
  %k0 = dist.matmul %x, %wk : (tensor<4x2x8xf32>, tensor<8x8xf32>) -> tensor<4x2x8xf32>
  %k1 = dist.reshape %k0 {shape = array<i64: 4, 2, 2, 4>} : (tensor<4x2x8xf32>) -> tensor<4x2x2x4xf32>
  %k = dist.transpose %k1 {permutation = array<i64: 0, 2, 3, 1>} : (tensor<4x2x2x4xf32>) -> tensor<4x2x4x2xf32>
  %v0 = dist.matmul %x, %wv : (tensor<4x2x8xf32>, tensor<8x8xf32>) -> tensor<4x2x8xf32>
  %v1 = dist.reshape %v0 {shape = array<i64: 4, 2, 2, 4>} : (tensor<4x2x8xf32>) -> tensor<4x2x2x4xf32>
  %v = dist.transpose %v1 {permutation = array<i64: 0, 2, 1, 3>} : (tensor<4x2x2x4xf32>) -> tensor<4x2x2x4xf32>
  %s = dist.matmul %q, %k : (tensor<4x2x2x4xf32>, tensor<4x2x4x2xf32>) -> tensor<4x2x2x2xf32>
  %p = dist.softmax %s {axis = 3 : i64} : (tensor<4x2x2x2xf32>) -> tensor<4x2x2x2xf32>
  %c0 = dist.matmul %p, %v : (tensor<4x2x2x2xf32>, tensor<4x2x2x4xf32>) -> tensor<4x2x2x4xf32>
  %c1 = dist.transpose %c0 {permutation = array<i64: 0, 2, 1, 3>} : (tensor<4x2x2x4xf32>) -> tensor<4x2x2x4xf32>
  %c = dist.reshape %c1 {shape = array<i64: 4, 2, 8>} : (tensor<4x2x2x4xf32>) -> tensor<4x2x8xf32>
  %o = dist.matmul %c, %wo : (tensor<4x2x8xf32>, tensor<8x8xf32>) -> tensor<4x2x8xf32>
  %r = dist.add %x, %o : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
  // MLP: fc1 (with its bias) column-parallel, fc2 row-parallel; x * x in
  // between reads the split value twice.
  %h0 = dist.matmul %r, %w1 : (tensor<4x2x8xf32>, tensor<8x16xf32>) -> tensor<4x2x16xf32>
  %h1 = dist.add %h0, %b1 : (tensor<4x2x16xf32>, tensor<16xf32>) -> tensor<4x2x16xf32>
  %h2 = dist.mul %h1, %h1 : (tensor<4x2x16xf32>, tensor<4x2x16xf32>) -> tensor<4x2x16xf32>
  %h3 = dist.tanh %h2 : (tensor<4x2x16xf32>) -> tensor<4x2x16xf32>
  %y = dist.matmul %h3, %w2 : (tensor<4x2x16xf32>, tensor<16x8xf32>) -> tensor<4x2x8xf32>
  // A projection into a layer norm over its columns stays replicated.
  %z0 = dist.matmul %y, %w3 : (tensor<4x2x8xf32>, tensor<8x8xf32>) -> tensor<4x2x8xf32>
  %z = dist.layer_norm %z0, %g, %beta {axis = 2 : i64} : (tensor<4x2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x2x8xf32>
  %loss = dist.mse_loss %z, %target : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}
