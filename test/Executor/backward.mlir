// Backward helpers and optimizer updates on fixed inputs. Expected values
// come from the closed-form gradients evaluated with NumPy in f64; where the
// f32 kernels land one ulp away the last digit is left open. The optimizer
// values are NumPy's float32 evaluation of the same formulas.
// RUN: dist-run %s --entry activations | FileCheck %s --check-prefix=ACT
// RUN: dist-run %s --entry normalization | FileCheck %s --check-prefix=NORM
// RUN: dist-run %s --entry losses | FileCheck %s --check-prefix=LOSS
// RUN: dist-run %s --entry optimizers | FileCheck %s --check-prefix=OPT

// x = [-1, 0.5, 2], dy = [1, 2, 3]; tanh/sigmoid grads take the forward output.
// ACT: relu: f32 [3] = [0, 2, 3]
// ACT: tanh: f32 [3] = [0.4199743, 1.572895, 0.211952{{[45]}}]
// ACT: sigmoid: f32 [3] = [0.1966119, 0.4700074, 0.31498{{0[79]}}]
// ACT: gelu: f32 [3] = [-0.0833154{{[78]}}, 1.73499, 3.255695]
// ACT: softmax: f32 [3] = [-0.0959505{{1?}}, -0.0638268{{[78]}}, 0.159777{{[34]}}]
// ACT: log_softmax: f32 [3] = [0.765324{{[56]}}, 0.948257{{[67]}}, -1.713582]
func.func @activations() -> (tensor<3xf32> {dist.name = "relu"}, tensor<3xf32> {dist.name = "tanh"},
                             tensor<3xf32> {dist.name = "sigmoid"}, tensor<3xf32> {dist.name = "gelu"},
                             tensor<3xf32> {dist.name = "softmax"}, tensor<3xf32> {dist.name = "log_softmax"}) {
  %x = dist.constant dense<[-1.0, 0.5, 2.0]> : tensor<3xf32>
  %dy = dist.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %relu = dist.relu_grad %dy, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %t = dist.tanh %x : (tensor<3xf32>) -> tensor<3xf32>
  %tanh = dist.tanh_grad %dy, %t : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = dist.sigmoid %x : (tensor<3xf32>) -> tensor<3xf32>
  %sigmoid = dist.sigmoid_grad %dy, %s : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %gelu = dist.gelu_grad %dy, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %p = dist.softmax %x {scale = 0.5 : f64} : (tensor<3xf32>) -> tensor<3xf32>
  %softmax = dist.softmax_grad %dy, %p {scale = 0.5 : f64} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %l = dist.log_softmax %x : (tensor<3xf32>) -> tensor<3xf32>
  %log_softmax = dist.log_softmax_grad %dy, %l : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %relu, %tanh, %sigmoid, %gelu, %softmax, %log_softmax : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// NORM: dx: f32 [2, 2] = {{\[\[}}0, 0], [0, 0]]
// NORM: dscale: f32 [2] = [-2, 2]
// NORM: dbias: f32 [2] = [2, 2]
// NORM: bn_dx: f32 [1, 2, 2] = {{\[\[\[}}0.5, 0.5], [2, 2]]]
// NORM: bn_dscale: f32 [2] = [0.5, 1]
// NORM: bn_dbias: f32 [2] = [2, 2]
func.func @normalization() -> (tensor<2x2xf32> {dist.name = "dx"}, tensor<2xf32> {dist.name = "dscale"},
                               tensor<2xf32> {dist.name = "dbias"}, tensor<1x2x2xf32> {dist.name = "bn_dx"},
                               tensor<2xf32> {dist.name = "bn_dscale"}, tensor<2xf32> {dist.name = "bn_dbias"}) {
  // Rows normalize to [-1, 1]; a uniform upstream gradient gives dx = 0.
  %x = dist.constant dense<[[1.0, 3.0], [-2.0, 0.0]]> : tensor<2x2xf32>
  %g = dist.constant dense<1.0> : tensor<2xf32>
  %dy = dist.constant dense<1.0> : tensor<2x2xf32>
  %dx, %dscale, %dbias = dist.layer_norm_grad %dy, %x, %g {epsilon = 0.0 : f64} : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  %y = dist.constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>
  %scale = dist.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %mean = dist.constant dense<[1.0, 3.0]> : tensor<2xf32>
  %var = dist.constant dense<[4.0, 1.0]> : tensor<2xf32>
  %bdy = dist.constant dense<1.0> : tensor<1x2x2xf32>
  %bn_dx, %bn_dscale, %bn_dbias = dist.batch_norm_grad %bdy, %y, %scale, %mean, %var {epsilon = 0.0 : f64} : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %dx, %dscale, %dbias, %bn_dx, %bn_dscale, %bn_dbias : tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<1x2x2xf32>, tensor<2xf32>, tensor<2xf32>
}

// Cross entropy: (softmax - onehot) / N for the mean; mse: 2 (p - t) / N;
// take_grad adds the rows of repeated ids.
// LOSS: dlogits: f32 [2, 2] = {{\[\[}}0.3655293, -0.3655293], [-0.25, 0.25]]
// LOSS: dpred: f32 [2] = [1, -2]
// LOSS: dtable: f32 [3, 2] = {{\[\[}}0, 0], [0, 0], [4, 6]]
func.func @losses() -> (tensor<2x2xf32> {dist.name = "dlogits"}, tensor<2xf32> {dist.name = "dpred"},
                        tensor<3x2xf32> {dist.name = "dtable"}) {
  %logits = dist.constant dense<[[2.0, 1.0], [0.0, 0.0]]> : tensor<2x2xf32>
  %labels = dist.constant dense<[1, 0]> : tensor<2xi64>
  %one = dist.constant dense<1.0> : tensor<f32>
  %dlogits = dist.cross_entropy_grad %one, %logits, %labels : (tensor<f32>, tensor<2x2xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  %p = dist.constant dense<[2.0, -1.0]> : tensor<2xf32>
  %t = dist.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %dpred = dist.mse_loss_grad %one, %p, %t : (tensor<f32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %dy = dist.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %ids = dist.constant dense<[2, -1]> : tensor<2xi64>
  %dtable = dist.take_grad %dy, %ids {dim_size = 3 : i64} : (tensor<2x2xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %dlogits, %dpred, %dtable : tensor<2x2xf32>, tensor<2xf32>, tensor<3x2xf32>
}

// Adam's first step moves every weight by lr against the sign of its gradient.
// OPT: sgd: f32 [2] = [0.95, -0.8]
// OPT: adam_w: f32 [2] = [0.9899999, -0.9899999]
// OPT: adam_m: f32 [2] = [0.05000001, -0.2]
// OPT: adam_v: f32 [2] = [0.0002499968, 0.003999949]
func.func @optimizers() -> (tensor<2xf32> {dist.name = "sgd"}, tensor<2xf32> {dist.name = "adam_w"},
                            tensor<2xf32> {dist.name = "adam_m"}, tensor<2xf32> {dist.name = "adam_v"}) {
  %w = dist.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %g = dist.constant dense<[0.5, -2.0]> : tensor<2xf32>
  %sgd = dist.sgd_update %w, %g {lr = 0.1 : f64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %zero = dist.constant dense<0.0> : tensor<2xf32>
  %step = dist.constant dense<1.0> : tensor<f32>
  %adam_w, %adam_m, %adam_v = dist.adam_update %w, %g, %zero, %zero, %step {lr = 0.01 : f64} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %sgd, %adam_w, %adam_m, %adam_v : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
