// Every compute op's sharding rule, checked by execution: each function
// splits its inputs over a 2 x 2 mesh (batch, channels, features, heads...),
// propagation and partitioning do the rest, and dist-run compares the result
// with the unpartitioned function on the same random inputs. Rules that
// declare a split the op cannot honour (a softmax axis, a normalized dim, a
// convolution window, a gather axis, a weighted mean) would fail here.

// RUN: dist-opt %s --dist-propagate-sharding --dist-partition -o %t
// RUN: dist-run %t --reference %s --entry elementwise --seed 1 | FileCheck %s
// RUN: dist-run %t --reference %s --entry normalization --seed 1 | FileCheck %s
// RUN: dist-run %t --reference %s --entry causal --seed 1 | FileCheck %s
// RUN: dist-run %t --reference %s --entry activation_grads --seed 1 | FileCheck %s
// RUN: dist-run %t --reference %s --entry movement --seed 1 | FileCheck %s
// RUN: dist-run %t --reference %s --entry gather --seed 1 | FileCheck %s
// RUN: dist-run %t --reference %s --entry reductions --seed 1 | FileCheck %s
// RUN: dist-run %t --reference %s --entry losses --seed 1 | FileCheck %s
// RUN: dist-run %t --reference %s --entry vocab_parallel_losses --seed 1 | FileCheck %s
// RUN: dist-run %t --reference %s --entry optimizers --seed 1 | FileCheck %s
// RUN: dist-run %t --reference %s --entry convolution --seed 1 | FileCheck %s
// RUN: dist-run %t --reference %s --entry batch_norm --seed 1 | FileCheck %s
// RUN: dist-run %t --reference %s --entry matmul_forms --seed 1 | FileCheck %s

// CHECK: overall: {{.*}}: PASS

dist.mesh @m shape = [2, 2] axes = ["a", "b"]

func.func @elementwise(%x: tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, [["a"], ["b"]]>},
                       %y: tensor<6xf32>, %c: tensor<4x6xi1>) -> tensor<4x6xf32> {
  %0 = dist.add %x, %y : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %1 = dist.sub %0, %y : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %2 = dist.mul %1, %x : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %3 = dist.exp %2 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %4 = dist.div %3, %y : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %5 = dist.log %3 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %6 = dist.sqrt %3 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %7 = dist.rsqrt %3 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %8 = dist.pow %6, %7 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %9 = dist.erf %8 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %10 = dist.relu %9 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %11 = dist.tanh %10 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %12 = dist.sigmoid %11 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %13 = dist.gelu %12 {approximate = #dist<gelu_approximation tanh>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %14 = dist.neg %13 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %15 = dist.dropout %14 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %16 = dist.where %c, %15, %5 : (tensor<4x6xi1>, tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %17 = dist.cast %16 {to = f64} : (tensor<4x6xf32>) -> tensor<4x6xf64>
  %18 = dist.cast %17 {to = f32} : (tensor<4x6xf64>) -> tensor<4x6xf32>
  %19 = dist.add %18, %4 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %19 : tensor<4x6xf32>
}

func.func @normalization(%x: tensor<4x2x6xf32> {dist.sharding = #dist.sharding<@m, [["a"], ["b"], []]>},
                         %g: tensor<6xf32>, %bias: tensor<6xf32>, %dy: tensor<4x2x6xf32>)
    -> (tensor<4x2x6xf32>, tensor<4x2x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<4x2x6xf32>, tensor<4x2x6xf32>, tensor<4x2x6xf32>) {
  %0 = dist.layer_norm %x, %g, %bias : (tensor<4x2x6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<4x2x6xf32>
  %dx, %dg, %db = dist.layer_norm_grad %dy, %x, %g : (tensor<4x2x6xf32>, tensor<4x2x6xf32>, tensor<6xf32>) -> (tensor<4x2x6xf32>, tensor<6xf32>, tensor<6xf32>)
  %1 = dist.softmax %x {axis = 2 : i64, scale = 0.5 : f64} : (tensor<4x2x6xf32>) -> tensor<4x2x6xf32>
  %2 = dist.log_softmax %x {axis = 1 : i64} : (tensor<4x2x6xf32>) -> tensor<4x2x6xf32>
  %3 = dist.softmax_grad %dy, %1 {axis = 2 : i64, scale = 0.5 : f64} : (tensor<4x2x6xf32>, tensor<4x2x6xf32>) -> tensor<4x2x6xf32>
  %4 = dist.log_softmax_grad %dy, %2 {axis = 1 : i64} : (tensor<4x2x6xf32>, tensor<4x2x6xf32>) -> tensor<4x2x6xf32>
  return %0, %dx, %dg, %db, %3, %4, %1 : tensor<4x2x6xf32>, tensor<4x2x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<4x2x6xf32>, tensor<4x2x6xf32>, tensor<4x2x6xf32>
}

func.func @causal(%x: tensor<4x2x4x4xf32> {dist.sharding = #dist.sharding<@m, [["a"], ["b"], [], []]>}) -> tensor<4x2x4x4xf32> {
  %0 = dist.softmax %x {causal, scale = 0.25 : f64} : (tensor<4x2x4x4xf32>) -> tensor<4x2x4x4xf32>
  return %0 : tensor<4x2x4x4xf32>
}

func.func @activation_grads(%x: tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, [["b"], ["a"]]>}, %dy: tensor<4x6xf32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %0 = dist.relu_grad %dy, %x : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %1 = dist.tanh_grad %dy, %x : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %2 = dist.sigmoid_grad %dy, %x : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %3 = dist.gelu_grad %dy, %x : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %0, %1, %2, %3 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

func.func @movement(%x: tensor<4x6x2xf32> {dist.sharding = #dist.sharding<@m, [["a"], [], ["b"]]>}, %y: tensor<4x2x2xf32>)
    -> (tensor<2x6x4xf32>, tensor<8x3x2xf32>, tensor<4x8x2xf32>, tensor<4x2x2xf32>, tensor<4x4x2xf32>, tensor<4x9x2xf32>, tensor<3x4x6x2xf32>) {
  %0 = dist.transpose %x {permutation = array<i64: 2, 1, 0>} : (tensor<4x6x2xf32>) -> tensor<2x6x4xf32>
  %1 = dist.reshape %x {shape = array<i64: 8, 3, 2>} : (tensor<4x6x2xf32>) -> tensor<8x3x2xf32>
  %2 = dist.concat %x, %y {axis = 1 : i64} : (tensor<4x6x2xf32>, tensor<4x2x2xf32>) -> tensor<4x8x2xf32>
  %3 = dist.slice %x {starts = array<i64: 0, 1, 0>, limits = array<i64: 4, 5, 2>, strides = array<i64: 1, 2, 1>} : (tensor<4x6x2xf32>) -> tensor<4x2x2xf32>
  %4:2 = dist.split %x {axis = 1 : i64, sizes = array<i64: 2, 4>} : (tensor<4x6x2xf32>) -> (tensor<4x2x2xf32>, tensor<4x4x2xf32>)
  %5 = dist.pad %x {low = array<i64: 0, 1, 0>, high = array<i64: 0, 2, 0>, interior = array<i64: 0, 0, 0>} : (tensor<4x6x2xf32>) -> tensor<4x9x2xf32>
  %6 = dist.expand %x {shape = array<i64: 3, 4, 6, 2>} : (tensor<4x6x2xf32>) -> tensor<3x4x6x2xf32>
  return %0, %1, %2, %3, %4#1, %5, %6 : tensor<2x6x4xf32>, tensor<8x3x2xf32>, tensor<4x8x2xf32>, tensor<4x2x2xf32>, tensor<4x4x2xf32>, tensor<4x9x2xf32>, tensor<3x4x6x2xf32>
}

func.func @gather(%table: tensor<10x4xf32> {dist.sharding = #dist.sharding<@m, [[], ["b"]]>},
                  %ids: tensor<4x2xi64> {dist.bound = 10 : i64, dist.sharding = #dist.sharding<@m, [["a"], []]>},
                  %dy: tensor<4x2x4xf32>) -> (tensor<4x2x4xf32>, tensor<10x4xf32>) {
  %0 = dist.take %table, %ids : (tensor<10x4xf32>, tensor<4x2xi64>) -> tensor<4x2x4xf32>
  %1 = dist.take_grad %dy, %ids {dim_size = 10 : i64} : (tensor<4x2x4xf32>, tensor<4x2xi64>) -> tensor<10x4xf32>
  return %0, %1 : tensor<4x2x4xf32>, tensor<10x4xf32>
}

func.func @reductions(%x: tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, [["a"], ["b"]]>})
    -> (tensor<6xf32>, tensor<4x1xf32>, tensor<f32>) {
  %0 = dist.reduce_sum %x {axes = array<i64: 0>} : (tensor<4x6xf32>) -> tensor<6xf32>
  %1 = dist.reduce_mean %x {axes = array<i64: -1>, keepdims} : (tensor<4x6xf32>) -> tensor<4x1xf32>
  %2 = dist.reduce_mean %x {axes = array<i64: 0, 1>} : (tensor<4x6xf32>) -> tensor<f32>
  return %0, %1, %2 : tensor<6xf32>, tensor<4x1xf32>, tensor<f32>
}

func.func @losses(%logits: tensor<4x2x5xf32> {dist.sharding = #dist.sharding<@m, [["a"], ["b"], []]>},
                  %labels: tensor<4x2xi64> {dist.bound = 5 : i64}, %w: tensor<5xf32>,
                  %p: tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, [["b"], ["a"]]>}, %t: tensor<4x6xf32>)
    -> (tensor<f32>, tensor<f32>, tensor<4x2xf32>, tensor<f32>, tensor<4x2x5xf32>, tensor<4x2x5xf32>, tensor<f32>, tensor<4x6xf32>) {
  %one = dist.constant dense<0.75> : tensor<f32>
  %0 = dist.cross_entropy %logits, %labels : (tensor<4x2x5xf32>, tensor<4x2xi64>) -> tensor<f32>
  %1 = dist.cross_entropy %logits, %labels {reduction = #dist<loss_reduction sum>} : (tensor<4x2x5xf32>, tensor<4x2xi64>) -> tensor<f32>
  %2 = dist.cross_entropy %logits, %labels {reduction = #dist<loss_reduction none>} : (tensor<4x2x5xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  %3 = dist.cross_entropy %logits, %labels, %w : (tensor<4x2x5xf32>, tensor<4x2xi64>, tensor<5xf32>) -> tensor<f32>
  %4 = dist.cross_entropy_grad %one, %logits, %labels : (tensor<f32>, tensor<4x2x5xf32>, tensor<4x2xi64>) -> tensor<4x2x5xf32>
  %5 = dist.cross_entropy_grad %2, %logits, %labels {reduction = #dist<loss_reduction none>} : (tensor<4x2xf32>, tensor<4x2x5xf32>, tensor<4x2xi64>) -> tensor<4x2x5xf32>
  %6 = dist.mse_loss %p, %t : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<f32>
  %7 = dist.mse_loss_grad %one, %p, %t : (tensor<f32>, tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<f32>, tensor<f32>, tensor<4x2xf32>, tensor<f32>, tensor<4x2x5xf32>, tensor<4x2x5xf32>, tensor<f32>, tensor<4x6xf32>
}

// Classes split over "b" (Megatron-LM's vocabulary-parallel cross entropy,
// through the ops' local expansions), samples over "a"; the maximum and the
// one-hot encoding as the expansion uses them.
func.func @vocab_parallel_losses(%logits: tensor<4x2x6xf32> {dist.sharding = #dist.sharding<@m, [["a"], [], ["b"]]>},
                                 %labels: tensor<4x2xi64> {dist.bound = 6 : i64})
    -> (tensor<f32>, tensor<f32>, tensor<4x2xf32>, tensor<4x2x6xf32>, tensor<4x2x6xf32>, tensor<4x2x1xf32>, tensor<4x2x6xf32>) {
  %one = dist.constant dense<0.75> : tensor<f32>
  %0 = dist.cross_entropy %logits, %labels : (tensor<4x2x6xf32>, tensor<4x2xi64>) -> tensor<f32>
  %1 = dist.cross_entropy %logits, %labels {reduction = #dist<loss_reduction sum>} : (tensor<4x2x6xf32>, tensor<4x2xi64>) -> tensor<f32>
  %2 = dist.cross_entropy %logits, %labels {reduction = #dist<loss_reduction none>} : (tensor<4x2x6xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  %3 = dist.cross_entropy_grad %one, %logits, %labels : (tensor<f32>, tensor<4x2x6xf32>, tensor<4x2xi64>) -> tensor<4x2x6xf32>
  %4 = dist.cross_entropy_grad %2, %logits, %labels {reduction = #dist<loss_reduction none>} : (tensor<4x2xf32>, tensor<4x2x6xf32>, tensor<4x2xi64>) -> tensor<4x2x6xf32>
  %5 = dist.reduce_max %logits {axes = array<i64: -1>, keepdims} : (tensor<4x2x6xf32>) -> tensor<4x2x1xf32>
  %6 = dist.one_hot %labels {depth = 6, element_type = f32} : (tensor<4x2xi64>) -> tensor<4x2x6xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<f32>, tensor<f32>, tensor<4x2xf32>, tensor<4x2x6xf32>, tensor<4x2x6xf32>, tensor<4x2x1xf32>, tensor<4x2x6xf32>
}

func.func @optimizers(%w: tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, [["a"], ["b"]]>}, %g: tensor<4x6xf32>,
                      %m1: tensor<4x6xf32>, %m2: tensor<4x6xf32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %step = dist.constant dense<3.0> : tensor<f32>
  %v = dist.mul %m2, %m2 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %0 = dist.sgd_update %w, %g {lr = 0.1 : f64} : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %1:3 = dist.adam_update %w, %g, %m1, %v, %step {lr = 0.01 : f64} : (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<f32>) -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>)
  return %0, %1#0, %1#1, %1#2 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

func.func @convolution(%x: tensor<4x4x5x5xf32> {dist.sharding = #dist.sharding<@m, [["a"], ["b"], [], []]>},
                       %f: tensor<6x4x3x3xf32>, %bias: tensor<6xf32>, %dy: tensor<4x6x3x3xf32>)
    -> (tensor<4x6x3x3xf32>, tensor<4x6x3x3xf32>, tensor<4x4x5x5xf32>, tensor<6x4x3x3xf32>, tensor<4x4x4x4xf32>, tensor<4x4x2x2xf32>, tensor<4x4x1x1xf32>, tensor<4x4x5x5xf32>, tensor<4x4x5x5xf32>) {
  %0 = dist.conv %x, %f {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<4x4x5x5xf32>, tensor<6x4x3x3xf32>) -> tensor<4x6x3x3xf32>
  %1 = dist.conv %x, %f, %bias {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<4x4x5x5xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) -> tensor<4x6x3x3xf32>
  %2 = dist.conv_grad_input %dy, %f {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, input_shape = array<i64: 4, 4, 5, 5>} : (tensor<4x6x3x3xf32>, tensor<6x4x3x3xf32>) -> tensor<4x4x5x5xf32>
  %3 = dist.conv_grad_filter %dy, %x {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, filter_shape = array<i64: 6, 4, 3, 3>} : (tensor<4x6x3x3xf32>, tensor<4x4x5x5xf32>) -> tensor<6x4x3x3xf32>
  %4 = dist.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<4x4x5x5xf32>) -> tensor<4x4x4x4xf32>
  %5 = dist.avg_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>} : (tensor<4x4x5x5xf32>) -> tensor<4x4x2x2xf32>
  %6 = dist.global_avg_pool %x : (tensor<4x4x5x5xf32>) -> tensor<4x4x1x1xf32>
  %7 = dist.max_pool_grad %4, %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<4x4x4x4xf32>, tensor<4x4x5x5xf32>) -> tensor<4x4x5x5xf32>
  %8 = dist.avg_pool_grad %5 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, input_shape = array<i64: 4, 4, 5, 5>} : (tensor<4x4x2x2xf32>) -> tensor<4x4x5x5xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4x6x3x3xf32>, tensor<4x6x3x3xf32>, tensor<4x4x5x5xf32>, tensor<6x4x3x3xf32>, tensor<4x4x4x4xf32>, tensor<4x4x2x2xf32>, tensor<4x4x1x1xf32>, tensor<4x4x5x5xf32>, tensor<4x4x5x5xf32>
}

func.func @batch_norm(%x: tensor<4x4x3xf32> {dist.sharding = #dist.sharding<@m, [["a"], ["b"], []]>}, %s: tensor<4xf32>, %b: tensor<4xf32>,
                      %mean: tensor<4xf32>, %var: tensor<4xf32>, %dy: tensor<4x4x3xf32>)
    -> (tensor<4x4x3xf32>, tensor<4x4x3xf32>, tensor<4xf32>, tensor<4xf32>) {
  %v = dist.mul %var, %var : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %0 = dist.batch_norm %x, %s, %b, %mean, %v : (tensor<4x4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4x4x3xf32>
  %dx, %ds, %db = dist.batch_norm_grad %dy, %x, %s, %mean, %v : (tensor<4x4x3xf32>, tensor<4x4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4x4x3xf32>, tensor<4xf32>, tensor<4xf32>)
  return %0, %dx, %ds, %db : tensor<4x4x3xf32>, tensor<4x4x3xf32>, tensor<4xf32>, tensor<4xf32>
}

func.func @matmul_forms(%a: tensor<2x4x6xf32> {dist.sharding = #dist.sharding<@m, [["a"], [], ["b"]]>}, %b: tensor<6x8xf32>,
                        %v: tensor<6xf32>, %c: tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4xf32>, tensor<2x6x8xf32>, tensor<2x4x4xf32>) {
  %0 = dist.matmul %a, %b : (tensor<2x4x6xf32>, tensor<6x8xf32>) -> tensor<2x4x8xf32>
  %1 = dist.matmul %a, %v : (tensor<2x4x6xf32>, tensor<6xf32>) -> tensor<2x4xf32>
  %2 = dist.matmul %a, %0 {transpose_a} : (tensor<2x4x6xf32>, tensor<2x4x8xf32>) -> tensor<2x6x8xf32>
  %3 = dist.matmul %0, %c {transpose_b} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x4xf32>
  return %0, %1, %2, %3 : tensor<2x4x8xf32>, tensor<2x4xf32>, tensor<2x6x8xf32>, tensor<2x4x4xf32>
}
