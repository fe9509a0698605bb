// RUN: dist-opt %s --dist-autodiff=optimizer=none --dist-recompute=mode=full | FileCheck %s --check-prefix=FULL
// RUN: dist-opt %s --dist-autodiff=optimizer=none --dist-recompute=mode=minimal | FileCheck %s --check-prefix=MIN
// RUN: dist-opt %s --dist-autodiff=optimizer=none --dist-recompute=mode=selective | FileCheck %s --check-prefix=SEL
// A second run finds nothing left to recompute: the clones read checkpoints only.
// RUN: dist-opt %s --dist-autodiff=optimizer=none --dist-recompute=mode=full --dist-recompute=mode=full | FileCheck %s --check-prefix=FULL
// RUN: dist-opt %s --dist-autodiff=optimizer=none --dist-recompute=mode=minimal --dist-recompute=mode=minimal | FileCheck %s --check-prefix=MIN
// RUN: dist-opt %s --dist-autodiff=optimizer=none --dist-recompute=mode=minimal --dist-recompute=mode=full | FileCheck %s --check-prefix=MIN

// Two dense layers with tanh, then attention-shaped ops in layer 1: scores
// matmul, softmax, dropout, probs x V.
func.func @f(%x: tensor<2x4x8xf32> {dist.name = "input", dist.role = "data"},
             %w0: tensor<8x8xf32> {dist.name = "w0", dist.role = "parameter"},
             %w1: tensor<8x8xf32> {dist.name = "w1", dist.role = "parameter"},
             %t: tensor<2x4x8xf32> {dist.name = "target", dist.role = "data"})
    -> (tensor<f32> {dist.name = "loss", dist.role = "loss"}) {
  %h0 = dist.matmul %x, %w0 {dist.layer = 0} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
  %a0 = dist.tanh %h0 {dist.layer = 0} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %h1 = dist.matmul %a0, %w1 {dist.layer = 1} : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
  %a1 = dist.tanh %h1 {dist.layer = 1} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %s = dist.matmul %a1, %a1 {dist.layer = 1, transpose_b} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x4xf32>
  %p = dist.softmax %s {dist.layer = 1, causal, scale = 0.5 : f64} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %d = dist.dropout %p {dist.layer = 1} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = dist.matmul %d, %a1 {dist.layer = 1} : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %l = dist.mse_loss %c, %t {dist.layer = 1} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Full: layer 0's only activation a backward op reads is its output %a0,
// which layer 1 reads too: a checkpoint, so layer 0 is not re-run. Layer 1's
// whole forward is re-run from %a0 right before its first backward op (the
// loss seed), including the ops whose results no backward op reads, as
// Megatron-LM's checkpointing does, but not the loss (no mode recomputes the
// op whose result is the returned loss, so its input %c is stored and the
// context matmul's clone stays unused); the other backward ops read the
// clones.
// FULL-LABEL: func.func @f
// FULL:      %[[A0:.*]] = dist.tanh %{{.*}} {dist.layer = 0 : i64, dist.phase = "forward"}
// FULL:      dist.mse_loss %[[C0:[^,]*]], {{.*}}dist.phase = "forward"
// FULL-NEXT: %[[H1:.*]] = dist.matmul %[[A0]], %arg1 {dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed}
// FULL-NEXT: %[[A1:.*]] = dist.tanh %[[H1]] {dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed}
// FULL-NEXT: %[[S:.*]] = dist.matmul %[[A1]], %[[A1]] {dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed, transpose_b}
// FULL-NEXT: %[[P:.*]] = dist.softmax %[[S]] {causal, dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed
// FULL-NEXT: %[[D:.*]] = dist.dropout %[[P]] {dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed}
// FULL-NEXT: dist.matmul %[[D]], %[[A1]] {dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed}
// FULL-NEXT: %[[SEED:.*]] = dist.constant dense<1.000000e+00> : tensor<f32> {dist.layer = 1 : i64, dist.phase = "backward"}
// FULL-NEXT: dist.mse_loss_grad %[[SEED]], %[[C0]], %arg3
// FULL:      dist.softmax_grad %{{.*}}, %[[P]]
// FULL:      dist.tanh_grad %{{.*}}, %[[A1]] {dist.layer = 1
// FULL:      dist.tanh_grad %{{.*}}, %[[A0]] {dist.layer = 0
// FULL-NOT:  dist.recomputed
// FULL:      return

// Minimal: layer 0's only activation a backward op reads is its output %a0,
// which layer 1 reads too: a checkpoint, nothing of layer 0 is cloned. Layer
// 1's ops that the backward reads are re-run from %a0 right before its first
// backward op (the loss seed), and the backward ops read the clones; the
// loss is not re-run, so its input %c is stored and not recomputed.
// MIN-LABEL: func.func @f
// MIN:      %[[A0:.*]] = dist.tanh %{{.*}} {dist.layer = 0 : i64, dist.phase = "forward"}
// MIN:      dist.mse_loss %[[C0:[^,]*]], {{.*}}dist.phase = "forward"
// MIN-NEXT: %[[H1:.*]] = dist.matmul %[[A0]], %arg1 {dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed}
// MIN-NEXT: %[[A1:.*]] = dist.tanh %[[H1]] {dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed}
// MIN-NEXT: %[[S:.*]] = dist.matmul %[[A1]], %[[A1]] {dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed, transpose_b}
// MIN-NEXT: %[[P:.*]] = dist.softmax %[[S]] {causal, dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed
// MIN-NEXT: %[[D:.*]] = dist.dropout %[[P]] {dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed}
// MIN-NEXT: %[[SEED:.*]] = dist.constant dense<1.000000e+00> : tensor<f32> {dist.layer = 1 : i64, dist.phase = "backward"}
// MIN-NEXT: dist.mse_loss_grad %[[SEED]], %[[C0]], %arg3
// MIN:      dist.softmax_grad %{{.*}}, %[[P]]
// MIN:      dist.tanh_grad %{{.*}}, %[[A1]] {dist.layer = 1
// MIN:      dist.tanh_grad %{{.*}}, %[[A0]] {dist.layer = 0
// MIN-NOT:  dist.recomputed
// MIN:      return

// Selective: only the attention core (scores matmul, softmax, dropout) is
// cloned; the tanh and the context matmul are read from the forward pass.
// SEL-LABEL: func.func @f
// SEL:      %[[A1:.*]] = dist.tanh {{.*}}dist.layer = 1 : i64, dist.phase = "forward"
// SEL:      %[[C:.*]] = dist.matmul %{{.*}}, %[[A1]] {dist.layer = 1 : i64, dist.phase = "forward"} :
// SEL-NEXT: dist.mse_loss {{.*}}dist.phase = "forward"
// SEL-NEXT: %[[S:.*]] = dist.matmul %[[A1]], %[[A1]] {dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed, transpose_b}
// SEL-NEXT: %[[P:.*]] = dist.softmax %[[S]] {causal, dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed
// SEL-NEXT: %[[D:.*]] = dist.dropout %[[P]] {dist.layer = 1 : i64, dist.phase = "backward", dist.recomputed}
// SEL-NEXT: dist.constant dense<1.000000e+00>
// SEL-NEXT: dist.mse_loss_grad %{{.*}}, %[[C]], %arg3
// SEL:      dist.matmul %[[D]], %{{.*}} {dist.layer = 1 : i64, dist.phase = "backward", transpose_a}
// SEL:      dist.softmax_grad %{{.*}}, %[[P]]
// SEL:      dist.tanh_grad %{{.*}}, %[[A1]] {dist.layer = 1
// SEL-NOT:  dist.recomputed
// SEL:      return
