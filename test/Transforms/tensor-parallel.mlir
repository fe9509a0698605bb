// Megatron-LM tensor parallelism on dist-gen's models, after dist-autodiff.
// Structure: the attention is split by heads; each transformer block needs
// exactly one all_reduce in forward per sub-block (after the row-parallel
// proj and fc2) and one in backward (the input gradient of the column-
// parallel qkv and fc1); nothing is gathered. Numerics: dist-run against the
// unsplit training step.

// RUN: dist-gen gpt --layers 1 --hidden 16 --heads 4 --seq 8 --vocab 32 --batch 2 | dist-opt --dist-autodiff=optimizer=sgd -o %t.gpt.mlir
// RUN: dist-opt %t.gpt.mlir --dist-tensor-parallel=tp=2 -o %t.gpt.tp.mlir
// RUN: FileCheck %s --check-prefix=GPT --implicit-check-not=dist.all_gather --implicit-check-not=dist.reduce_scatter --implicit-check-not=dist.all_to_all < %t.gpt.tp.mlir
// RUN: dist-run %t.gpt.tp.mlir --reference %t.gpt.mlir --seed 1 | FileCheck %s --check-prefix=EXEC

// RUN: dist-gen mlp --layers 4 --hidden 8 --batch 4 | dist-opt --dist-autodiff=optimizer=sgd -o %t.mlp.mlir
// RUN: dist-opt %t.mlp.mlir --dist-tensor-parallel=tp=2 -o %t.mlp.tp.mlir
// RUN: FileCheck %s --check-prefix=MLP --implicit-check-not=dist.all_gather --implicit-check-not=dist.reduce_scatter < %t.mlp.tp.mlir
// RUN: dist-run %t.mlp.tp.mlir --reference %t.mlp.mlir --seed 2 | FileCheck %s --check-prefix=EXEC

// EXEC: overall: {{.*}}: PASS

// GPT: dist.mesh @world shape = [2] axes = ["tp"]
// Column-parallel qkv: each device holds 24 of the 48 columns (2 of 4 heads).
// GPT: %[[QKV:.*]] = dist.matmul %{{.*}}, %arg4 {{{.*}}dist.sharding = #dist.sharding<@world, {{\[\[}}], [], ["tp"]]>} : (tensor<2x8x16xf32, #dist.devices<[0:2]>>, tensor<16x24xf32, #dist.devices<[0:2]>>) -> tensor<2x8x24xf32
// GPT: dist.add %[[QKV]], %arg5 {{.*}} -> tensor<2x8x24xf32
// Attention by heads: [batch, heads / tp, seq, seq] scores.
// GPT: %[[SCORES:.*]] = dist.matmul {{.*}} -> tensor<2x2x8x8xf32
// GPT: dist.softmax %[[SCORES]] {causal, {{.*}}dist.sharding = #dist.sharding<@world, {{\[\[}}], ["tp"], [], []]>
// Row-parallel proj: partial sums, one all_reduce, then the bias.
// GPT: %[[PROJ:.*]] = dist.matmul %{{.*}}, %arg6 {{{.*}}partial = ["tp"]>} : (tensor<2x8x8xf32, {{.*}}>, tensor<8x16xf32
// GPT: %[[PROJSUM:.*]] = dist.all_reduce %[[PROJ]] sum groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.phase = "forward"}
// GPT: dist.add %[[PROJSUM]], %arg7
// GPT: %[[FC1:.*]] = dist.matmul %{{.*}}, %arg10 {{.*}} -> tensor<2x8x32xf32
// GPT: %[[FC2:.*]] = dist.matmul %{{.*}}, %arg12 {{{.*}}partial = ["tp"]>} : (tensor<2x8x32xf32, {{.*}}>, tensor<32x16xf32
// GPT: %[[FC2SUM:.*]] = dist.all_reduce %[[FC2]] sum groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.phase = "forward"}
// GPT: dist.add %[[FC2SUM]], %arg13
// Backward: the input gradient of fc1, then of qkv, are the only reductions.
// GPT: %[[DFC1:.*]] = dist.matmul %{{.*}}, %arg10 {{{.*}}dist.phase = "backward", dist.sharding = #dist.sharding<@world, {{\[\[}}], [], []], partial = ["tp"]>, transpose_b}
// GPT: dist.all_reduce %[[DFC1]] sum groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.phase = "backward"}
// GPT: %[[DQKV:.*]] = dist.matmul %{{.*}}, %arg4 {{{.*}}dist.phase = "backward", dist.sharding = #dist.sharding<@world, {{\[\[}}], [], []], partial = ["tp"]>, transpose_b}
// GPT: dist.all_reduce %[[DQKV]] sum groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.phase = "backward"}
// GPT-NOT: dist.all_reduce
// Split parameters are updated locally, on their shards.
// GPT: dist.sgd_update %arg4, %{{.*}} -> tensor<16x24xf32
// GPT: return

// A plain multilayer perceptron alternates column / row; one all_reduce per pair in
// forward, one in backward for the input gradient of the second pair's
// column layer (the first pair's input is data: it has no gradient).
// MLP: dist.matmul %arg4, %arg0 {{.*}} -> tensor<4x4xf32
// MLP: %[[L1:.*]] = dist.matmul %{{.*}}, %arg1 {{{.*}}partial = ["tp"]>}
// MLP: dist.all_reduce %[[L1]] sum {{.*}} {dist.layer = 1 : i64, dist.phase = "forward"}
// MLP: dist.matmul %{{.*}}, %arg2 {{.*}} -> tensor<4x4xf32
// MLP: %[[L3:.*]] = dist.matmul %{{.*}}, %arg3 {{{.*}}partial = ["tp"]>}
// MLP: dist.all_reduce %[[L3]] sum {{.*}} {dist.layer = 3 : i64, dist.phase = "forward"}
// MLP: %[[D2:.*]] = dist.matmul %{{.*}}, %arg2 {{{.*}}dist.phase = "backward", {{.*}}partial = ["tp"]>, transpose_b}
// MLP: dist.all_reduce %[[D2]] sum
// MLP-NOT: dist.all_reduce
// MLP: return
