// Sequence parallelism (Korthikanti et al. 2022) on dist-gen's GPT after
// dist-autodiff: the activations tensor parallelism leaves replicated (layer
// norms, dropouts, residual adds) are split along the sequence over tp. Each
// tp all_reduce of forward becomes a reduce_scatter into the sequence-split
// region and each column-parallel input an all_gather; backward mirrors it
// (all_gather of the gradient before a row-parallel matmul's input gradient,
// reduce_scatter of a column-parallel one) and gathers the layer norm output
// again for each weight gradient instead of keeping forward's gather; the
// layer norm and row-parallel bias gradients are partial sums over tp,
// all-reduced before the optimizer.

// RUN: dist-gen gpt --layers 1 --hidden 16 --heads 4 --seq 8 --vocab 32 --batch 2 --dropout 0.1 | dist-opt --dist-autodiff=optimizer=adam -o %t.gpt.mlir
// RUN: dist-opt %t.gpt.mlir --dist-tensor-parallel="tp=2 sequence-parallel=true" -o %t.gpt.sp.mlir
// RUN: FileCheck %s --check-prefix=GPT --implicit-check-not=dist.all_to_all < %t.gpt.sp.mlir
// dist-parallelize's tp all-reduces are the same reduce-scatters:
// 3 in forward (embedding, proj, fc2), 3 in backward (LM head, fc1, qkv).
// RUN: dist-opt %t.gpt.mlir --dist-parallelize="tp=2 sequence-parallel=true" | grep -c "dist.reduce_scatter" | FileCheck %s --check-prefix=PAR
// PAR: {{^}}6{{$}}

// The vocabulary-parallel embedding's partial sums are reduce-scattered along
// the sequence; the position table is cut locally (no collective).
// GPT: %[[EMB:.*]] = dist.take %arg0, %arg49, %{{.*}} {{.*}}-> tensor<2x8x16xf32
// GPT-NEXT: dist.reduce_scatter %[[EMB]] sum dim 1 groups {{\[\[}}0:2]] {{.*}} -> tensor<2x4x16xf32
// GPT: %[[RANK:.*]] = dist.group_rank groups {{\[\[}}0:2]]
// GPT: dist.take %{{.*}}, %[[RANK]] {{.*}} -> tensor<4x16xf32
// Dropout on the sequence slice draws its block of the reference's mask.
// GPT: dist.dropout_train {{.*}}block_dims = array<i64: 1>, block_sizes = array<i64: 4>{{.*}}reference_shape = array<i64: 2, 8, 16>
// GPT: %[[LN1:.*]] = dist.layer_norm {{.*}} -> tensor<2x4x16xf32
// GPT-NEXT: %[[X1:.*]] = dist.all_gather %[[LN1]] dim 1 groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.phase = "forward"}
// GPT-NEXT: dist.matmul %[[X1]], %arg4 {{.*}} -> tensor<2x8x24xf32
// GPT: %[[PROJ:.*]] = dist.matmul %{{.*}}, %arg6 {{{.*}}partial = ["tp"]>}
// GPT-NEXT: dist.reduce_scatter %[[PROJ]] sum dim 1 groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.phase = "forward"} : tensor<2x8x16xf32, {{.*}}> -> tensor<2x4x16xf32
// GPT: %[[LN2:.*]] = dist.layer_norm {{.*}} -> tensor<2x4x16xf32
// GPT-NEXT: %[[X2:.*]] = dist.all_gather %[[LN2]] dim 1
// GPT-NEXT: dist.matmul %[[X2]], %arg10 {{.*}} -> tensor<2x8x32xf32
// GPT: %[[FC2:.*]] = dist.matmul %{{.*}}, %arg12 {{{.*}}partial = ["tp"]>}
// GPT-NEXT: dist.reduce_scatter %[[FC2]] sum dim 1
// The final layer norm's output is gathered for the LM head.
// GPT: %[[LNF:.*]] = dist.layer_norm {{.*}} -> tensor<2x4x16xf32
// GPT-NEXT: dist.all_gather %[[LNF]] dim 1
// The MLP block in backward: fc2's output gradient gathered; the layer norm's
// output gathered again for fc1's weight gradient; fc1's input gradient
// reduce-scattered into the sequence-split layer norm gradient.
// GPT: dist.layer_norm_grad {{.*}}dist.phase = "backward"
// GPT: %[[DY2:.*]] = dist.all_gather %{{.*}} dim 1 groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.phase = "backward"}
// GPT-NEXT: dist.matmul %[[DY2]], %arg12 {{.*}}transpose_b
// GPT: %[[DX1:.*]] = dist.matmul %{{.*}}, %arg10 {{{.*}}partial = ["tp"]>, transpose_b}
// GPT-NEXT: dist.all_gather %[[LN2]] dim 1 groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.phase = "backward"}
// GPT: dist.reduce_scatter %[[DX1]] sum dim 1 groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.phase = "backward"}
// GPT-NEXT: dist.layer_norm_grad {{.*}}partial = ["tp"]>
// Backward of the attention, the same.
// GPT: %[[DQKV:.*]] = dist.matmul %{{.*}}, %arg4 {{{.*}}partial = ["tp"]>, transpose_b}
// GPT-NEXT: dist.all_gather %[[LN1]] dim 1 groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.phase = "backward"}
// GPT: dist.reduce_scatter %[[DQKV]] sum dim 1
// The embedding's gradient is gathered for the vocabulary-parallel scatter.
// GPT: %[[DEMB:.*]] = dist.all_gather %{{.*}} dim 1 groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.phase = "backward"}
// GPT: dist.take_grad %[[DEMB]]
// Layer norm gradients are partial sums over tp: all-reduced (Megatron-LM
// all-reduces the gradients of its sequence-parallel parameters).
// GPT: dist.all_reduce %scale_grad_10 sum groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.phase = "optimizer"}
// GPT: dist.all_reduce %bias_grad_11 sum
// GPT: return

// A plain multilayer perceptron, whose tokens are the batch, split over tp between the pairs.
// RUN: dist-gen mlp --layers 4 --hidden 8 --batch 4 | dist-opt --dist-autodiff=optimizer=adam | dist-opt --dist-tensor-parallel="tp=2 sequence-parallel=true" | FileCheck %s --check-prefix=MLP --implicit-check-not=dist.all_to_all
// MLP: %[[L1:.*]] = dist.matmul %{{.*}}, %arg1 {{{.*}}partial = ["tp"]>}
// MLP-NEXT: dist.reduce_scatter %[[L1]] sum dim 0 {{.*}} -> tensor<2x8xf32
// MLP: dist.all_gather %{{.*}} dim 0 {{.*}}dist.layer = 2 : i64, dist.phase = "forward"{{.*}} -> tensor<4x8xf32
// MLP: %[[L3:.*]] = dist.matmul %{{.*}}, %arg3 {{{.*}}partial = ["tp"]>}
// MLP-NEXT: dist.reduce_scatter %[[L3]] sum dim 0
// MLP-NOT: dist.reduce_scatter {{.*}}"optimizer"
// MLP: return

// Impossible configurations: one line naming the option.
// RUN: not dist-opt %t.gpt.mlir --dist-parallelize="tp=1 sequence-parallel=true" 2>&1 | FileCheck %s --check-prefix=TP1
// TP1: error: sequence-parallel=true needs tp > 1, got tp=1
// RUN: not dist-opt %t.gpt.mlir --dist-tensor-parallel="tp=1 sequence-parallel=true" 2>&1 | FileCheck %s --check-prefix=TP1-TP
// TP1-TP: error: sequence-parallel=true needs a "tp" axis of more than one device on mesh @world
// RUN: dist-gen gpt --layers 1 --hidden 16 --heads 4 --seq 6 --vocab 32 --batch 2 | dist-opt --dist-autodiff=optimizer=adam -o %t.seq6.mlir
// RUN: not dist-opt %t.seq6.mlir --dist-parallelize="tp=4 sequence-parallel=true" 2>&1 | FileCheck %s --check-prefix=SEQ
// SEQ: error: 'dist.add' op sequence-parallel=true: tp=4 cannot split the sequence: dimension 1 of size 6 is not divisible into 4 shards
// An MLP's tokens are its batch: split by tp, microbatches cannot split it
// again.
// RUN: dist-gen mlp --layers 4 --hidden 8 --batch 8 | dist-opt --dist-autodiff=optimizer=adam -o %t.mlp.mlir
// RUN: not dist-opt %t.mlp.mlir --dist-parallelize="tp=2 pp=2 microbatches=2 sequence-parallel=true" 2>&1 | FileCheck %s --check-prefix=MICRO
// MICRO: error: 'dist.reduce_scatter' op needs the whole batch dimension; it cannot be split into microbatches (sequence-parallel=true splits the tokens, which are this model's batch)
// The activations are found from the data arguments: without roles there
// is nothing to go by.
// RUN: sed 's/, dist.role = "[a-z_]*"//g' %t.mlp.mlir > %t.noroles.mlir
// RUN: not dist-opt %t.noroles.mlir --dist-tensor-parallel="tp=2 sequence-parallel=true" 2>&1 | FileCheck %s --check-prefix=ROLES
// ROLES: error: sequence-parallel=true needs the data arguments marked with dist.role = "data"
