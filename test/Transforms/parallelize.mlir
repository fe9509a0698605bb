// dist-parallelize on a 2-layer GPT training step (hidden 32, 4 heads).
// RUN: dist-gen gpt --layers 2 --hidden 32 --heads 4 --seq 8 --vocab 64 --batch 8 | dist-opt --dist-autodiff=optimizer=sgd -o %t.train.mlir

// Tensor parallelism alone: Megatron layouts, attention split by heads (each
// device holds 2 of the 4 heads of the head-major qkv columns), one
// all_reduce per attention and per MLP block in the forward (after the
// row-parallel matmul) and one in the backward (the input gradient of the
// column-parallel matmul), over the tp group. The vocabulary is split too:
// one all_reduce after the embedding lookup, the cross entropy's maximum,
// sum of exponentials and loss, and the input gradient of the
// column-parallel LM head (see vocab-parallel.test).
// RUN: dist-opt %t.train.mlir --dist-parallelize="tp=2" > %t.tp.mlir
// RUN: FileCheck %s --check-prefix=TP < %t.tp.mlir
// RUN: grep "dist.all_reduce" %t.tp.mlir | FileCheck %s --check-prefix=MEGATRON
// TP: dist.mesh @world shape = [1, 1, 2] axes = ["pp", "dp", "tp"]
// TP: tensor<32x48xf32, #dist.devices<[0:2]>> {dist.name = "layers.0.attn.qkv.weight", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[}}], ["tp"]]>}
// TP-SAME: tensor<16x32xf32, #dist.devices<[0:2]>> {dist.name = "layers.0.attn.proj.weight", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[}}"tp"], []]>}
// TP: dist.reshape {{.*}}shape = array<i64: 8, 8, 2, 3, 8>} : (tensor<8x8x48xf32, #dist.devices<[0:2]>>) -> tensor<8x8x2x3x8xf32, #dist.devices<[0:2]>>
// MEGATRON:      sum groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.microbatch = 0 : i64, dist.no_recompute, dist.phase = "forward"
// MEGATRON-NEXT: sum groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.microbatch = 0 : i64, dist.phase = "forward"
// MEGATRON-NEXT: sum groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.microbatch = 0 : i64, dist.phase = "forward"
// MEGATRON-NEXT: sum groups {{\[\[}}0:2]] {dist.layer = 1 : i64, dist.microbatch = 0 : i64, dist.phase = "forward"
// MEGATRON-NEXT: sum groups {{\[\[}}0:2]] {dist.layer = 1 : i64, dist.microbatch = 0 : i64, dist.phase = "forward"
// MEGATRON-NEXT: max groups {{\[\[}}0:2]] {dist.layer = 1 : i64, dist.microbatch = 0 : i64, dist.no_recompute, dist.phase = "forward"
// MEGATRON-NEXT: sum groups {{\[\[}}0:2]] {dist.layer = 1 : i64, dist.microbatch = 0 : i64, dist.no_recompute, dist.phase = "forward"
// MEGATRON-NEXT: sum groups {{\[\[}}0:2]] {dist.layer = 1 : i64, dist.microbatch = 0 : i64, dist.no_recompute, dist.phase = "forward"
// MEGATRON-NEXT: sum groups {{\[\[}}0:2]] {dist.layer = 1 : i64, dist.microbatch = 0 : i64, dist.phase = "backward"
// MEGATRON-NEXT: sum groups {{\[\[}}0:2]] {dist.layer = 1 : i64, dist.microbatch = 0 : i64, dist.phase = "backward"
// MEGATRON-NEXT: sum groups {{\[\[}}0:2]] {dist.layer = 1 : i64, dist.microbatch = 0 : i64, dist.phase = "backward"
// MEGATRON-NEXT: sum groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.microbatch = 0 : i64, dist.phase = "backward"
// MEGATRON-NEXT: sum groups {{\[\[}}0:2]] {dist.layer = 0 : i64, dist.microbatch = 0 : i64, dist.phase = "backward"
// MEGATRON-NOT:  dist.all_reduce

// All three on 8 devices: device (p * dp + d) * tp + t, so stage 0 is
// [0:4] and stage 1 [4:8], tp groups are consecutive ids and dp groups
// stride over them. Activations go forward and gradients backward with one
// send per microbatch; every weight gradient is all-reduced once per step
// over the dp groups of its stage only (after the microbatches are summed),
// never over a whole stage.
// RUN: dist-opt %t.train.mlir --dist-parallelize="dp=2 tp=2 pp=2 microbatches=2" > %t.3d.mlir
// RUN: FileCheck %s --check-prefix=MESH < %t.3d.mlir
// RUN: grep -F "groups [[0, 2], [1, 3]]" %t.3d.mlir | FileCheck %s --check-prefix=DP0
// RUN: grep "dist.send" %t.3d.mlir | FileCheck %s --check-prefix=SEND
// MESH: dist.mesh @world shape = [2, 2, 2] axes = ["pp", "dp", "tp"]
// MESH: tensor<32x48xf32, #dist.devices<[0:4]>> {dist.name = "layers.0.attn.qkv.weight"
// MESH: tensor<32x48xf32, #dist.devices<[4:8]>> {dist.name = "layers.1.attn.qkv.weight"
// MESH: tensor<4x8xi64, #dist.devices<[0:4]>> {dist.bound = 64 : i64, dist.name = "tokens", dist.role = "data", dist.sharding = #dist.sharding<@world, {{\[\[}}"dp"], []]>}
// MESH: dist.all_reduce {{.*}} groups {{\[\[}}0:2], [2:4]]
// MESH: dist.all_reduce {{.*}} groups {{\[\[}}4:6], [6:8]]
// MESH: dist.all_reduce {{.*}} groups {{\[\[}}4, 6], [5, 7]] {dist.layer = 1 : i64, dist.phase = "optimizer", dist.stage = 1 : i64}
// MESH-NOT: groups {{\[\[}}0:4]]
// MESH-NOT: groups {{\[\[}}4:8]] {{.*}}dist.phase = "optimizer"
// The loss, partial over dp (a mean) and tp (the vocabulary-parallel cross
// entropy), is the only value reduced over a whole stage.
// MESH: dist.all_reduce {{.*}} sum groups {{\[\[}}4:8]] {{.*}}dist.phase = "forward", dist.stage = 1 : i64} : tensor<f32, #dist.devices<[4:8]>>
// MESH-NOT: groups {{\[\[}}0:4]]
// MESH-NOT: groups {{\[\[}}4:8]]
// The tied word embedding: the lookup's gradient is reduced over dp before
// the head's, sent back from the last stage, is added to it.
// DP0: dist.all_reduce {{.*}} sum groups {{\[\[}}0, 2], [1, 3]] {dist.layer = 0 : i64, dist.phase = "backward", dist.stage = 0 : i64} : tensor<32x32xf32
// DP0-COUNT-13: dist.all_reduce {{.*}} sum groups {{\[\[}}0, 2], [1, 3]] {dist.layer = 0 : i64, dist.phase = "optimizer", dist.stage = 0 : i64}
// DP0-NOT: dist.microbatch
// The tied word embedding, read by the head on the last stage, is sent there
// once per step, and the head's gradient of it comes back once (Megatron-LM
// keeps a copy on both stages and all-reduces the gradient instead).
// SEND:      %arg0 to [4:8] {dist.layer = 1 : i64, dist.no_recompute, dist.phase = "forward", dist.stage = 1 : i64} : tensor<32x32xf32, #dist.devices<[0:4]>>
// SEND-NEXT: to [4:8] {dist.layer = 0 : i64, dist.microbatch = 0 : i64, dist.phase = "forward", dist.stage = 0 : i64} : tensor<2x8x32xf32, #dist.devices<[0:4]>>
// SEND-NEXT: to [4:8] {dist.layer = 0 : i64, dist.microbatch = 1 : i64, dist.phase = "forward", dist.stage = 0 : i64}
// SEND-NEXT: to [0:4] {dist.layer = 1 : i64, dist.microbatch = 0 : i64, dist.phase = "backward", dist.stage = 1 : i64}
// SEND-NEXT: to [0:4] {dist.layer = 1 : i64, dist.microbatch = 1 : i64, dist.phase = "backward", dist.stage = 1 : i64}
// SEND-NEXT: to [0:4] {dist.layer = 1 : i64, dist.phase = "backward", dist.stage = 1 : i64} : tensor<32x32xf32, #dist.devices<[4:8]>>
// SEND-NOT: dist.send
