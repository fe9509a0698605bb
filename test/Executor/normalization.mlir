// Softmax, normalizations, reductions and losses on fixed inputs. Expected
// values: NumPy in f64 rounded to f32 (the kernels sum in f64).
// RUN: dist-run %s --entry softmax | FileCheck %s --check-prefix=SOFTMAX
// RUN: dist-run %s --entry norms | FileCheck %s --check-prefix=NORMS
// RUN: dist-run %s --entry reductions | FileCheck %s --check-prefix=REDUCE
// RUN: dist-run %s --entry losses | FileCheck %s --check-prefix=LOSS

// The causal mask over [q, k] keeps k <= q; scale multiplies first.
// SOFTMAX: plain: f32 [2, 3] = {{\[\[}}0.09003057, 0.2447285, 0.6652409], [0.3333333, 0.3333333, 0.3333333]]
// SOFTMAX: causal: f32 [1, 3, 3] = {{\[\[\[}}1, 0, 0], [0.2689414, 0.7310586, 0], [0.09003057, 0.2447285, 0.6652409]]]
// SOFTMAX: scaled: f32 [2, 3] = {{\[\[}}0.1863237, 0.3071959, 0.5064804], [0.3333333, 0.3333333, 0.3333333]]
// SOFTMAX: log: f32 [2, 3] = {{\[\[}}-2.407606, -1.407606, -0.407606], [-1.098612, -1.098612, -1.098612]]
// SOFTMAX: columns: f32 [2, 3] = {{\[\[}}0.01798621, 0.04742587, 0.1192029], [0.9820138, 0.9525741, 0.8807971]]
func.func @softmax() -> (tensor<2x3xf32> {dist.name = "plain"}, tensor<1x3x3xf32> {dist.name = "causal"},
                         tensor<2x3xf32> {dist.name = "scaled"}, tensor<2x3xf32> {dist.name = "log"},
                         tensor<2x3xf32> {dist.name = "columns"}) {
  %x = dist.constant dense<[[1.0, 2.0, 3.0], [5.0, 5.0, 5.0]]> : tensor<2x3xf32>
  %plain = dist.softmax %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = dist.constant dense<[[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]]> : tensor<1x3x3xf32>
  %causal = dist.softmax %s {causal} : (tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
  %scaled = dist.softmax %x {scale = 0.5 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %log = dist.log_softmax %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %columns = dist.softmax %x {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %plain, %causal, %scaled, %log, %columns : tensor<2x3xf32>, tensor<1x3x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// layer_norm over the last dim (mean 2, variance 2/3 per row) and
// inference batch_norm over channel dim 1.
// NORMS: layer: f32 [2, 3] = {{\[\[}}-1.224745, 10, 11.22474], [-1.224745, 10, 11.22474]]
// NORMS: batch: f32 [1, 2, 2] = {{\[\[\[}}0, 0.5], [1, 3]]]
func.func @norms() -> (tensor<2x3xf32> {dist.name = "layer"}, tensor<1x2x2xf32> {dist.name = "batch"}) {
  %x = dist.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %scale = dist.constant dense<[1.0, 1.0, 1.0]> : tensor<3xf32>
  %bias = dist.constant dense<[0.0, 10.0, 10.0]> : tensor<3xf32>
  %layer = dist.layer_norm %x, %scale, %bias {epsilon = 0.0 : f64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %y = dist.constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>
  %g = dist.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = dist.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %m = dist.constant dense<[1.0, 3.0]> : tensor<2xf32>
  %v = dist.constant dense<[4.0, 1.0]> : tensor<2xf32>
  %batch = dist.batch_norm %y, %g, %b, %m, %v {epsilon = 0.0 : f64} : (tensor<1x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2xf32>
  return %layer, %batch : tensor<2x3xf32>, tensor<1x2x2xf32>
}

// REDUCE: sum_rows: f32 [3] = [5, 7, 9]
// REDUCE: mean_kept: f32 [2, 1] = {{\[\[}}2], [5]]
// REDUCE: sum_all: f32 [] = 21
func.func @reductions() -> (tensor<3xf32> {dist.name = "sum_rows"}, tensor<2x1xf32> {dist.name = "mean_kept"},
                            tensor<f32> {dist.name = "sum_all"}) {
  %x = dist.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %sum_rows = dist.reduce_sum %x {axes = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3xf32>
  %mean_kept = dist.reduce_mean %x {axes = array<i64: -1>, keepdims} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %sum_all = dist.reduce_sum %x {axes = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<f32>
  return %sum_rows, %mean_kept, %sum_all : tensor<3xf32>, tensor<2x1xf32>, tensor<f32>
}

// Labels [2, 0, 1] of logits [[1, 2, 3], [0, 0, 0], [3, 0, 0]]; per sample
// -log softmax: 0.407606, 1.098612, 3.094923. Weights [1, 2, 4] and
// ignore_index 0 as in ONNX SoftmaxCrossEntropyLoss.
// LOSS: mean: f32 [] = 1.533714
// LOSS: sum: f32 [] = 4.601141
// LOSS: none: f32 [3] = [0.407606, 1.098612, 3.094923]
// LOSS: weighted: f32 [] = 1.274126
// LOSS: ignoring: f32 [] = 1.303378
// LOSS: mse: f32 [] = 3.25
func.func @losses() -> (tensor<f32> {dist.name = "mean"}, tensor<f32> {dist.name = "sum"},
                        tensor<3xf32> {dist.name = "none"}, tensor<f32> {dist.name = "weighted"},
                        tensor<f32> {dist.name = "ignoring"}, tensor<f32> {dist.name = "mse"}) {
  %logits = dist.constant dense<[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [3.0, 0.0, 0.0]]> : tensor<3x3xf32>
  %labels = dist.constant dense<[2, 0, 1]> : tensor<3xi64>
  %w = dist.constant dense<[1.0, 2.0, 4.0]> : tensor<3xf32>
  %mean = dist.cross_entropy %logits, %labels : (tensor<3x3xf32>, tensor<3xi64>) -> tensor<f32>
  %sum = dist.cross_entropy %logits, %labels {reduction = #dist<loss_reduction sum>} : (tensor<3x3xf32>, tensor<3xi64>) -> tensor<f32>
  %none = dist.cross_entropy %logits, %labels {reduction = #dist<loss_reduction none>} : (tensor<3x3xf32>, tensor<3xi64>) -> tensor<3xf32>
  %weighted = dist.cross_entropy %logits, %labels, %w : (tensor<3x3xf32>, tensor<3xi64>, tensor<3xf32>) -> tensor<f32>
  %ignoring = dist.cross_entropy %logits, %labels, %w {ignore_index = 0 : i64} : (tensor<3x3xf32>, tensor<3xi64>, tensor<3xf32>) -> tensor<f32>
  %p = dist.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %t = dist.constant dense<[[1.0, 0.0], [0.0, 4.0]]> : tensor<2x2xf32>
  %mse = dist.mse_loss %p, %t : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<f32>
  return %mean, %sum, %none, %weighted, %ignoring, %mse : tensor<f32>, tensor<f32>, tensor<3xf32>, tensor<f32>, tensor<f32>, tensor<f32>
}
