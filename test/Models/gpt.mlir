// RUN: dist-gen gpt --layers 2 --hidden 16 --heads 2 --seq 8 --vocab 32 --batch 2 | FileCheck %s
// RUN: dist-gen gpt --layers 2 --hidden 16 --heads 2 --seq 8 --vocab 32 --batch 2 | dist-opt | FileCheck %s
// RUN: dist-gen gpt --layers 2 --hidden 16 --heads 2 --seq 8 --vocab 32 --batch 2 | FileCheck %s --check-prefix=NAMES
// RUN: dist-gen gpt --layers 2 --hidden 16 --heads 2 --seq 8 --vocab 32 --batch 2 --untie-embeddings | FileCheck %s --check-prefix=UNTIED
// RUN: not dist-gen mlp --layers 2 --hidden 16 --batch 2 --untie-embeddings 2>&1 | FileCheck %s --check-prefix=MLP-UNTIED
// RUN: dist-gen gpt --layers 2 --hidden 16 --heads 2 --seq 8 --vocab 32 --batch 2 --dropout 0 | FileCheck %s --check-prefix=NO-DROPOUT --implicit-check-not=dropout
// RUN: dist-gen gpt --layers 2 --hidden 16 --heads 2 --seq 8 --vocab 32 --batch 2 | FileCheck %s --check-prefix=DROPOUT

// UNTIED: %[[HEAD:[^:]*]]: tensor<16x32xf32> {dist.name = "lm_head.weight", dist.role = "parameter"}
// UNTIED: dist.matmul {{.*}}, %[[HEAD]] {dist.layer = 1 : i64, dist.no_recompute} : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
// MLP-UNTIED: mlp has no option --untie-embeddings

// --dropout 0 emits no dropout; the default (0.1, Megatron-LM's) one after
// the embeddings and three per layer, ids in program order.
// NO-DROPOUT: func.func @gpt(
// DROPOUT-COUNT-7: dist.dropout_train {{.*}}ratio = 1.000000e-01 : f64
// DROPOUT-NOT: dist.dropout_train

// --attention fused: the attention core is one dist.attention (scale
// 1/sqrt(head dim), causal); with dropout (the default) it carries the id the unfused
// dist.dropout_train of the probabilities would have.
// RUN: dist-gen gpt --layers 2 --hidden 16 --heads 2 --seq 8 --vocab 32 --batch 2 --attention fused --dropout 0 | FileCheck %s --check-prefix=FUSED
// RUN: dist-gen gpt --layers 2 --hidden 16 --heads 2 --seq 8 --vocab 32 --batch 2 --attention fused | FileCheck %s --check-prefix=FUSED-DROP
// RUN: not dist-gen mlp --layers 2 --hidden 16 --batch 2 --attention fused 2>&1 | FileCheck %s --check-prefix=MLP-FUSED
// RUN: not dist-gen gpt --layers 2 --hidden 16 --heads 2 --seq 8 --vocab 32 --batch 2 --attention flash 2>&1 | FileCheck %s --check-prefix=BAD-KIND
// FUSED-NOT: dist.softmax
// FUSED: %{{.*}}, %{{.*}} = dist.attention %{{.*}}, %{{.*}}, %{{.*}} {causal, dist.layer = 0 : i64, scale = 0.35355339059327373 : f64} : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> (tensor<2x2x8x8xf32>, tensor<2x2x8xf32>)
// FUSED: dist.attention {{.*}}dist.layer = 1
// FUSED-NOT: dist.softmax
// FUSED-DROP: dist.dropout_train {{.*}}id = 0 : i64
// FUSED-DROP: dist.attention {{.*}}{causal, dist.layer = 0 : i64, dropout_id = 1 : i64, dropout_ratio = 1.000000e-01 : f64,
// FUSED-DROP: dist.dropout_train {{.*}}id = 2 : i64
// FUSED-DROP: dist.dropout_train {{.*}}id = 3 : i64
// FUSED-DROP: dist.attention {{.*}}dropout_id = 4 : i64
// MLP-FUSED: mlp has no option --attention
// BAD-KIND: Cannot find option named 'flash'

// CHECK-LABEL: func.func @gpt(
// CHECK-SAME: %[[TOK_EMB:[^:]*]]: tensor<32x16xf32> {dist.name = "embed.tokens.weight", dist.role = "parameter"}
// CHECK-SAME: %[[POS_EMB:[^:]*]]: tensor<8x16xf32> {dist.name = "embed.positions.weight", dist.role = "parameter"}
// CHECK-SAME: %[[LN1_W:[^:]*]]: tensor<16xf32> {dist.name = "layers.0.ln1.weight", dist.role = "parameter"}
// CHECK-SAME: %[[LN1_B:[^:]*]]: tensor<16xf32> {dist.name = "layers.0.ln1.bias", dist.role = "parameter"}
// CHECK-SAME: %[[QKV_W:[^:]*]]: tensor<16x48xf32> {dist.name = "layers.0.attn.qkv.weight", dist.role = "parameter"}
// CHECK-SAME: %[[QKV_B:[^:]*]]: tensor<48xf32> {dist.name = "layers.0.attn.qkv.bias", dist.role = "parameter"}
// CHECK-SAME: tensor<16x16xf32> {dist.name = "layers.0.attn.proj.weight", dist.role = "parameter"}
// CHECK-SAME: tensor<16xf32> {dist.name = "layers.0.attn.proj.bias", dist.role = "parameter"}
// CHECK-SAME: tensor<16xf32> {dist.name = "layers.0.ln2.weight", dist.role = "parameter"}
// CHECK-SAME: tensor<16xf32> {dist.name = "layers.0.ln2.bias", dist.role = "parameter"}
// CHECK-SAME: tensor<16x64xf32> {dist.name = "layers.0.mlp.fc1.weight", dist.role = "parameter"}
// CHECK-SAME: tensor<64xf32> {dist.name = "layers.0.mlp.fc1.bias", dist.role = "parameter"}
// CHECK-SAME: tensor<64x16xf32> {dist.name = "layers.0.mlp.fc2.weight", dist.role = "parameter"}
// CHECK-SAME: tensor<16xf32> {dist.name = "layers.0.mlp.fc2.bias", dist.role = "parameter"}
// CHECK-SAME: tensor<16xf32> {dist.name = "layers.1.ln1.weight", dist.role = "parameter"}
// CHECK-SAME: tensor<16xf32> {dist.name = "final_ln.weight", dist.role = "parameter"}
// CHECK-SAME: tensor<16xf32> {dist.name = "final_ln.bias", dist.role = "parameter"}
// CHECK-SAME: %[[TOKENS:[^:]*]]: tensor<2x8xi64> {dist.bound = 32 : i64, dist.name = "tokens", dist.role = "data"}
// CHECK-SAME: %[[LABELS:[^:]*]]: tensor<2x8xi64> {dist.bound = 32 : i64, dist.name = "labels", dist.role = "data"}
// CHECK-SAME: -> (tensor<f32> {dist.name = "loss", dist.role = "loss"})

// Embeddings (layer 0): token lookup plus the broadcast position table.
// CHECK: %[[E:.*]] = dist.take %[[TOK_EMB]], %[[TOKENS]] {dist.layer = 0 : i64, dist.no_recompute} : (tensor<32x16xf32>, tensor<2x8xi64>) -> tensor<2x8x16xf32>
// CHECK: %[[X0E:.*]] = dist.add %[[E]], %[[POS_EMB]] {dist.layer = 0 : i64, dist.no_recompute} : (tensor<2x8x16xf32>, tensor<8x16xf32>) -> tensor<2x8x16xf32>
// CHECK: %[[X0:.*]], %{{.*}} = dist.dropout_train %[[X0E]] {dist.layer = 0 : i64, dist.no_recompute, id = 0 : i64, ratio = 1.000000e-01 : f64} : (tensor<2x8x16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8x16xi1>)

// Attention of layer 0: qkv columns are (head, q/k/v, head dim).
// CHECK: dist.layer_norm %[[X0]], %[[LN1_W]], %[[LN1_B]] {dist.layer = 0 : i64}
// CHECK: %[[QKV:.*]] = dist.matmul %{{.*}}, %[[QKV_W]] {dist.layer = 0 : i64} : (tensor<2x8x16xf32>, tensor<16x48xf32>) -> tensor<2x8x48xf32>
// CHECK: %[[QKVB:.*]] = dist.add %[[QKV]], %[[QKV_B]]
// CHECK: %[[HEADS:.*]] = dist.reshape %[[QKVB]] {dist.layer = 0 : i64, shape = array<i64: 2, 8, 2, 3, 8>}
// CHECK: %[[PARTS:.*]]:3 = dist.split %[[HEADS]] {axis = 3 : i64, dist.layer = 0 : i64, sizes = array<i64: 1, 1, 1>}
// CHECK: %[[Q0:.*]] = dist.reshape %[[PARTS]]#0 {{.*}} -> tensor<2x8x2x8xf32>
// CHECK: %[[Q:.*]] = dist.transpose %[[Q0]] {dist.layer = 0 : i64, permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
// CHECK: %[[K0:.*]] = dist.reshape %[[PARTS]]#1
// CHECK: %[[K:.*]] = dist.transpose %[[K0]]
// CHECK: %[[V0:.*]] = dist.reshape %[[PARTS]]#2
// CHECK: %[[V:.*]] = dist.transpose %[[V0]]
// CHECK: %[[S:.*]] = dist.matmul %[[Q]], %[[K]] {dist.layer = 0 : i64, transpose_b} : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
// 1 / sqrt(head dim 8)
// CHECK: %[[P:.*]] = dist.softmax %[[S]] {causal, dist.layer = 0 : i64, scale = 0.35355339059327{{[0-9]*}} : f64}
// CHECK: %[[PD:.*]], %{{.*}} = dist.dropout_train %[[P]] {dist.layer = 0 : i64, id = 1 : i64, ratio = 1.000000e-01 : f64} : (tensor<2x2x8x8xf32>) -> (tensor<2x2x8x8xf32>, tensor<2x2x8x8xi1>)
// CHECK: %[[C:.*]] = dist.matmul %[[PD]], %[[V]] {dist.layer = 0 : i64}
// CHECK: %[[CT:.*]] = dist.transpose %[[C]] {dist.layer = 0 : i64, permutation = array<i64: 0, 2, 1, 3>}
// CHECK: dist.reshape %[[CT]] {dist.layer = 0 : i64, shape = array<i64: 2, 8, 16>}
// Hidden dropout after the projection (with its bias), before the residual.
// CHECK: %[[PROJB:.*]] = dist.add %{{.*}}, %{{.*}} {dist.layer = 0 : i64} : (tensor<2x8x16xf32>, tensor<16xf32>)
// CHECK: %[[PROJD:.*]], %{{.*}} = dist.dropout_train %[[PROJB]] {dist.layer = 0 : i64, id = 2 : i64
// CHECK: %[[X1:.*]] = dist.add %[[X0]], %[[PROJD]] {dist.layer = 0 : i64}
// CHECK: dist.gelu %{{.*}} {approximate = #dist<gelu_approximation tanh>, dist.layer = 0 : i64} : (tensor<2x8x64xf32>)
// CHECK: %[[FC2B:.*]] = dist.add %{{.*}}, %{{.*}} {dist.layer = 0 : i64} : (tensor<2x8x16xf32>, tensor<16xf32>)
// CHECK: %[[FC2D:.*]], %{{.*}} = dist.dropout_train %[[FC2B]] {dist.layer = 0 : i64, id = 3 : i64
// CHECK: dist.add %[[X1]], %[[FC2D]] {dist.layer = 0 : i64}

// Layer 1, then the final norm, head and loss stay in the last layer; like
// the embedding they are marked dist.no_recompute (Megatron-LM checkpoints
// only the transformer layers).
// CHECK: dist.layer_norm {{.*}} {dist.layer = 1 : i64}
// CHECK: dist.softmax {{.*}}dist.layer = 1 : i64
// CHECK: dist.layer_norm {{.*}} {dist.layer = 1 : i64}
// CHECK: dist.layer_norm {{.*}} {dist.layer = 1 : i64, dist.no_recompute}
// The LM head is the word embedding transposed (tied).
// CHECK: %[[LOGITS:.*]] = dist.matmul {{.*}}, %[[TOK_EMB]] {dist.layer = 1 : i64, dist.no_recompute, transpose_b} : (tensor<2x8x16xf32>, tensor<32x16xf32>) -> tensor<2x8x32xf32>
// CHECK: %[[LOSS:.*]] = dist.cross_entropy %[[LOGITS]], %[[LABELS]] {dist.layer = 1 : i64, dist.no_recompute} : (tensor<2x8x32xf32>, tensor<2x8xi64>) -> tensor<f32>
// CHECK-NEXT: return %[[LOSS]] : tensor<f32>

// Every parameter of both layers, in order.
// NAMES-COUNT-12: "layers.0.
// NAMES-COUNT-12: "layers.1.
// NAMES-NOT: "layers.2.
