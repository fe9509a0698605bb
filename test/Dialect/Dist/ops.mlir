// RUN: dist-opt %s | dist-opt | FileCheck %s
// RUN: dist-opt %s --mlir-print-op-generic | dist-opt | FileCheck %s

// Every op and attribute of the dialect round-trips through the printer and
// the parser.

// CHECK: dist.mesh @world shape = [2, 2, 2] axes = ["dp", "pp", "tp"]
dist.mesh @world shape = [2, 2, 2] axes = ["dp", "pp", "tp"]
// CHECK: dist.mesh @odd shape = [3] axes = ["x"] devices = [4, 2, 9]
dist.mesh @odd shape = [3] axes = ["x"] devices = [4, 2, 9]

// CHECK-LABEL: func.func @attributes
// CHECK-SAME: tensor<4xf32, #dist.devices<[0:8]>>
// CHECK-SAME: tensor<4xf32, #dist.devices<[0:8:2, 9]>>
// CHECK-SAME: tensor<4xf32, #dist.devices<[3, 7]>>
// CHECK-SAME: {dist.name = "w", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[}}"dp", "tp"], []], partial = ["pp"]>}
// CHECK-SAME: {dist.bound = 10 : i64, dist.role = "data"}
func.func @attributes(%a: tensor<4xf32, #dist.devices<[0, 1, 2, 3, 4, 5, 6, 7]>>,
                      %b: tensor<4xf32, #dist.devices<[0, 2, 4, 6, 9]>>,
                      %c: tensor<4xf32, #dist.devices<[3, 7]>>,
                      %w: tensor<8x8xf32> {dist.name = "w", dist.role = "parameter",
                           dist.sharding = #dist.sharding<@world, [["dp", "tp"], []], partial = ["pp"]>},
                      %t: tensor<8xi64> {dist.role = "data", dist.bound = 10}) {
  // CHECK: dist.sharding_constraint %{{.*}} : tensor<8x8xf32> to #dist.sharding<@world, {{\[\[}}], ["tp"]]>
  %0 = dist.sharding_constraint %w : tensor<8x8xf32> to #dist.sharding<@world, [[], ["tp"]]>
  // CHECK: dist.relu {{.*}} {dist.layer = 3 : i64, dist.phase = "forward"}
  %1 = dist.relu %0 {dist.layer = 3, dist.phase = "forward"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return
}

// CHECK-LABEL: func.func @forward
func.func @forward(%x: tensor<2x8x16xf32>, %w: tensor<16x32xf32>, %v: tensor<32xf32>,
                   %i: tensor<2x8xi64>, %c: tensor<2x8x32xi1>, %table: tensor<100x16xf32>) {
  // CHECK: dist.matmul %{{.*}}, %{{.*}} : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
  %0 = dist.matmul %x, %w : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.matmul {{.*}} {transpose_a, transpose_b}
  %1 = dist.matmul %w, %x {transpose_a, transpose_b} : (tensor<16x32xf32>, tensor<2x8x16xf32>) -> tensor<2x32x8xf32>
  // CHECK: dist.add {{.*}} -> tensor<2x8x32xf32>
  %2 = dist.add %0, %v : (tensor<2x8x32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.sub
  %3 = dist.sub %2, %0 : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.mul
  %4 = dist.mul %3, %v : (tensor<2x8x32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.div
  %5 = dist.div %4, %v : (tensor<2x8x32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.pow
  %6 = dist.pow %5, %v : (tensor<2x8x32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.where
  %7 = dist.where %c, %6, %5 : (tensor<2x8x32xi1>, tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.neg
  %8 = dist.neg %7 : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.exp
  %9 = dist.exp %8 : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.log
  %10 = dist.log %9 : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.sqrt
  %11 = dist.sqrt %10 : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.rsqrt
  %12 = dist.rsqrt %11 : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.erf
  %13 = dist.erf %12 : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.relu
  %14 = dist.relu %13 : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.tanh
  %15 = dist.tanh %14 : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.sigmoid
  %16 = dist.sigmoid %15 : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.gelu %{{.*}} {approximate = #dist<gelu_approximation tanh>}
  %17 = dist.gelu %16 {approximate = #dist<gelu_approximation tanh>} : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.softmax %{{.*}} {causal, scale = 1.250000e-01 : f64}
  %18 = dist.matmul %17, %17 {transpose_b} : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x8xf32>
  %19 = dist.softmax %18 {axis = -1, causal, scale = 0.125 : f64} : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  // CHECK: dist.log_softmax %{{.*}} {axis = 1 : i64}
  %20 = dist.log_softmax %19 {axis = 1} : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  // CHECK: dist.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 9.9999999999999995E-7 : f64}
  %21 = dist.layer_norm %17, %v, %v {axis = -1, epsilon = 1.0e-6 : f64} : (tensor<2x8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.transpose %{{.*}} {permutation = array<i64: 1, 0, 2>} : (tensor<2x8x32xf32>) -> tensor<8x2x32xf32>
  %22 = dist.transpose %21 {permutation = array<i64: 1, 0, 2>} : (tensor<2x8x32xf32>) -> tensor<8x2x32xf32>
  // CHECK: dist.reshape %{{.*}} {shape = array<i64: 16, -1>} : (tensor<8x2x32xf32>) -> tensor<16x32xf32>
  %23 = dist.reshape %22 {shape = array<i64: 16, -1>} : (tensor<8x2x32xf32>) -> tensor<16x32xf32>
  // CHECK: dist.concat {{.*}} {axis = 0 : i64} : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<32x32xf32>
  %24 = dist.concat %23, %23 {axis = 0} : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<32x32xf32>
  // CHECK: dist.slice {{.*}} -> tensor<4x16xf32>
  %25 = dist.slice %24 {starts = array<i64: 31, 0>, limits = array<i64: -1, 32>, strides = array<i64: -8, 2>} : (tensor<32x32xf32>) -> tensor<4x16xf32>
  // CHECK: dist.split {{.*}} -> (tensor<4x10xf32>, tensor<4x6xf32>)
  %26:2 = dist.split %25 {axis = 1, sizes = array<i64: 10, 6>} : (tensor<4x16xf32>) -> (tensor<4x10xf32>, tensor<4x6xf32>)
  // CHECK: dist.pad {{.*}} -> tensor<9x13xf32>
  %27 = dist.pad %26#1 {low = array<i64: 1, 0>, high = array<i64: 1, 2>, interior = array<i64: 1, 1>} : (tensor<4x6xf32>) -> tensor<9x13xf32>
  // CHECK: dist.take {{.*}} : (tensor<100x16xf32>, tensor<2x8xi64>) -> tensor<2x8x16xf32>
  %28 = dist.take %table, %i {axis = 0} : (tensor<100x16xf32>, tensor<2x8xi64>) -> tensor<2x8x16xf32>
  // CHECK: dist.take {{.*}} : (tensor<100x16xf32>, tensor<2x8xi64>, tensor<i64>) -> tensor<2x8x16xf32>
  %block = dist.constant dense<1> : tensor<i64>
  %take_block = dist.take %table, %i, %block : (tensor<100x16xf32>, tensor<2x8xi64>, tensor<i64>) -> tensor<2x8x16xf32>
  // CHECK: dist.expand {{.*}} -> tensor<3x2x8x32xf32>
  %29 = dist.expand %v {shape = array<i64: 3, 2, 8, 1>} : (tensor<32xf32>) -> tensor<3x2x8x32xf32>
  // CHECK: dist.reduce_sum {{.*}} {axes = array<i64: 0, -1>} : (tensor<3x2x8x32xf32>) -> tensor<2x8xf32>
  %30 = dist.reduce_sum %29 {axes = array<i64: 0, -1>} : (tensor<3x2x8x32xf32>) -> tensor<2x8xf32>
  // CHECK: dist.reduce_max {{.*}} {axes = array<i64: -1>, keepdims} : (tensor<3x2x8x32xf32>) -> tensor<3x2x8x1xf32>
  %max = dist.reduce_max %29 {axes = array<i64: -1>, keepdims} : (tensor<3x2x8x32xf32>) -> tensor<3x2x8x1xf32>
  // CHECK: dist.one_hot {{.*}} {depth = 16 : i64, element_type = f32} : (tensor<2x8xi64>, tensor<i64>) -> tensor<2x8x16xf32>
  %hot = dist.one_hot %i, %block {depth = 16, element_type = f32} : (tensor<2x8xi64>, tensor<i64>) -> tensor<2x8x16xf32>
  // CHECK: dist.reduce_mean {{.*}} {axes = array<i64: 1>, keepdims} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %31 = dist.reduce_mean %30 {axes = array<i64: 1>, keepdims} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  // CHECK: dist.cross_entropy {{.*}} : (tensor<2x8x32xf32>, tensor<2x8xi64>) -> tensor<f32>
  %32 = dist.cross_entropy %17, %i : (tensor<2x8x32xf32>, tensor<2x8xi64>) -> tensor<f32>
  // CHECK: dist.cross_entropy {{.*}} {class_axis = 1 : i64, ignore_index = 3 : i64, reduction = #dist<loss_reduction none>} : (tensor<2x32x8xf32>, tensor<2x8xi64>, tensor<32xf32>) -> tensor<2x8xf32>
  %33 = dist.cross_entropy %1, %i, %v {class_axis = 1, reduction = #dist<loss_reduction none>, ignore_index = 3} : (tensor<2x32x8xf32>, tensor<2x8xi64>, tensor<32xf32>) -> tensor<2x8xf32>
  // CHECK: dist.mse_loss {{.*}} -> tensor<f32>
  %34 = dist.mse_loss %0, %2 : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<f32>
  // CHECK: dist.dropout {{.*}} {ratio = 1.000000e-01 : f64}
  %35 = dist.dropout %0 {ratio = 0.1 : f64} : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  // CHECK: dist.dropout_train %{{.*}} {id = 3 : i64, ratio = 1.000000e-01 : f64} : (tensor<2x8x32xf32>) -> (tensor<2x8x32xf32>, tensor<2x8x32xi1>)
  %drop, %keep = dist.dropout_train %0 {ratio = 0.1 : f64, id = 3} : (tensor<2x8x32xf32>) -> (tensor<2x8x32xf32>, tensor<2x8x32xi1>)
  // CHECK: dist.dropout_train %{{.*}}, %{{.*}} {block_dims = array<i64: 0>, block_sizes = array<i64: 2>, id = 3 : i64, ratio = 1.000000e-01 : f64, reference_offset = array<i64: 4, 0, 0>, reference_shape = array<i64: 8, 8, 32>, seed = 7 : i64}
  %blk = dist.constant dense<1> : tensor<i64>
  %drop2, %keep2 = dist.dropout_train %0, %blk {ratio = 0.1 : f64, id = 3, seed = 7, reference_shape = array<i64: 8, 8, 32>, reference_offset = array<i64: 4, 0, 0>, block_dims = array<i64: 0>, block_sizes = array<i64: 2>} : (tensor<2x8x32xf32>, tensor<i64>) -> (tensor<2x8x32xf32>, tensor<2x8x32xi1>)
  // CHECK: dist.dropout_grad %{{.*}}, %{{.*}} {ratio = 1.000000e-01 : f64} : (tensor<2x8x32xf32>, tensor<2x8x32xi1>) -> tensor<2x8x32xf32>
  %dgrad = dist.dropout_grad %drop, %keep {ratio = 0.1 : f64} : (tensor<2x8x32xf32>, tensor<2x8x32xi1>) -> tensor<2x8x32xf32>
  // CHECK: dist.attention %{{.*}}, %{{.*}}, %{{.*}} {causal, scale = 2.500000e-01 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  %q = dist.reshape %0 {shape = array<i64: 2, 4, 8, 8>} : (tensor<2x8x32xf32>) -> tensor<2x4x8x8xf32>
  %qkv = dist.concat %q, %q {axis = 3} : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x16xf32>
  %att, %lse = dist.attention %qkv, %qkv, %qkv {causal, scale = 0.25 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  // CHECK: dist.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {block_dims = array<i64: 1>, block_sizes = array<i64: 4>, dropout_id = 2 : i64, dropout_ratio = 1.000000e-01 : f64, reference_offset = array<i64: 2, 0, 0, 0>, reference_shape = array<i64: 4, 8, 8, 8>, seed = 5 : i64}
  %att2, %lse2 = dist.attention %qkv, %qkv, %qkv, %blk {dropout_ratio = 0.1 : f64, dropout_id = 2, seed = 5, reference_shape = array<i64: 4, 8, 8, 8>, reference_offset = array<i64: 2, 0, 0, 0>, block_dims = array<i64: 1>, block_sizes = array<i64: 4>} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<i64>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  // CHECK: dist.attention_grad {{.*}} {causal, scale = 2.500000e-01 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>)
  %dq, %dk, %dv = dist.attention_grad %qkv, %qkv, %qkv, %att, %lse, %att {causal, scale = 0.25 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>)
  // CHECK: dist.cast %{{.*}} {to = bf16} : (tensor<2x8x32xf32>) -> tensor<2x8x32xbf16>
  %36 = dist.cast %35 {to = bf16} : (tensor<2x8x32xf32>) -> tensor<2x8x32xbf16>
  // CHECK: dist.constant dense<5.000000e-01> : tensor<f32>
  %37 = dist.constant dense<0.5> : tensor<f32>
  // CHECK: dist.constant dense<[1, 2]> : tensor<2xi64> on [0:4]
  %38 = dist.constant dense<[1, 2]> : tensor<2xi64> on [0:4]
  return
}

// CHECK-LABEL: func.func @vision
func.func @vision(%x: tensor<2x4x9x9xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>, %s: tensor<4xf32>) {
  // CHECK: dist.conv {{.*}} -> tensor<2x6x5x5xf32>
  %0 = dist.conv %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 2} : (tensor<2x4x9x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<2x6x5x5xf32>
  // CHECK: dist.max_pool {{.*}} -> tensor<2x6x3x3xf32>
  %1 = dist.max_pool %0 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode} : (tensor<2x6x5x5xf32>) -> tensor<2x6x3x3xf32>
  // CHECK: dist.avg_pool {{.*}} -> tensor<2x6x2x2xf32>
  %2 = dist.avg_pool %0 {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, count_include_pad} : (tensor<2x6x5x5xf32>) -> tensor<2x6x2x2xf32>
  // CHECK: dist.global_avg_pool {{.*}} -> tensor<2x6x1x1xf32>
  %3 = dist.global_avg_pool %0 : (tensor<2x6x5x5xf32>) -> tensor<2x6x1x1xf32>
  // CHECK: dist.batch_norm {{.*}} {epsilon = 1.000000e-03 : f64}
  %4 = dist.batch_norm %x, %s, %s, %s, %s {epsilon = 1.0e-3 : f64} : (tensor<2x4x9x9xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x9x9xf32>
  return
}

// CHECK-LABEL: func.func @backward
func.func @backward(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %g: tensor<8xf32>, %i: tensor<4xi64>,
                    %dl: tensor<f32>, %dimg: tensor<2x6x5x5xf32>, %img: tensor<2x4x9x9xf32>,
                    %w: tensor<6x2x3x3xf32>, %step: tensor<f32>) {
  // CHECK: dist.relu_grad
  %0 = dist.relu_grad %dy, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: dist.tanh_grad
  %1 = dist.tanh_grad %dy, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: dist.sigmoid_grad
  %2 = dist.sigmoid_grad %dy, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: dist.gelu_grad
  %3 = dist.gelu_grad %dy, %x {approximate = #dist<gelu_approximation tanh>} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: dist.softmax_grad {{.*}} {scale = 5.000000e-01 : f64}
  %4 = dist.softmax_grad %dy, %x {scale = 0.5 : f64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: dist.log_softmax_grad
  %5 = dist.log_softmax_grad %dy, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: dist.layer_norm_grad {{.*}} -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  %6:3 = dist.layer_norm_grad %dy, %x, %g : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  // CHECK: dist.batch_norm_grad {{.*}} -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  %7:3 = dist.batch_norm_grad %dy, %x, %g, %g, %g : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  // CHECK: dist.cross_entropy_grad
  %8 = dist.cross_entropy_grad %dl, %x, %i : (tensor<f32>, tensor<4x8xf32>, tensor<4xi64>) -> tensor<4x8xf32>
  // CHECK: dist.mse_loss_grad
  %9 = dist.mse_loss_grad %dl, %dy, %x : (tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: dist.take_grad {{.*}} {dim_size = 100 : i64} : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<100x8xf32>
  %10 = dist.take_grad %dy, %i {dim_size = 100} : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<100x8xf32>
  // CHECK: dist.conv_grad_input {{.*}} -> tensor<2x4x9x9xf32>
  %11 = dist.conv_grad_input %dimg, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 2, input_shape = array<i64: 2, 4, 9, 9>} : (tensor<2x6x5x5xf32>, tensor<6x2x3x3xf32>) -> tensor<2x4x9x9xf32>
  // CHECK: dist.conv_grad_filter {{.*}} -> tensor<6x2x3x3xf32>
  %12 = dist.conv_grad_filter %dimg, %img {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 2, filter_shape = array<i64: 6, 2, 3, 3>} : (tensor<2x6x5x5xf32>, tensor<2x4x9x9xf32>) -> tensor<6x2x3x3xf32>
  // CHECK: dist.max_pool_grad {{.*}} -> tensor<2x4x9x9xf32>
  %pooled = dist.max_pool %img {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<2x4x9x9xf32>) -> tensor<2x4x5x5xf32>
  %13 = dist.max_pool_grad %pooled, %img {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<2x4x5x5xf32>, tensor<2x4x9x9xf32>) -> tensor<2x4x9x9xf32>
  // CHECK: dist.avg_pool_grad {{.*}} -> tensor<2x4x9x9xf32>
  %14 = dist.avg_pool_grad %pooled {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, input_shape = array<i64: 2, 4, 9, 9>} : (tensor<2x4x5x5xf32>) -> tensor<2x4x9x9xf32>
  // CHECK: dist.sgd_update {{.*}} {lr = 1.000000e-02 : f64}
  %15 = dist.sgd_update %x, %dy {lr = 0.01 : f64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: dist.adam_update {{.*}} -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  %16:3 = dist.adam_update %x, %dy, %x, %x, %step {lr = 0.001 : f64} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// CHECK-LABEL: func.func @communication
func.func @communication(%x: tensor<8x16xf32, #dist.devices<[0:4]>>, %r: tensor<8x16xf32, #dist.devices<[0, 2]>>) {
  // CHECK: dist.send %{{.*}} to [4:8] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<8x16xf32, #dist.devices<[4:8]>>
  %0 = dist.send %x to [4:8] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<8x16xf32, #dist.devices<[4:8]>>
  // CHECK: dist.group_rank groups {{\[\[}}0, 2], [1, 3]] : tensor<i64, #dist.devices<[0:4]>>
  %rank = dist.group_rank groups [[0, 2], [1, 3]] : tensor<i64, #dist.devices<[0:4]>>
  // CHECK: dist.all_reduce %{{.*}} sum groups {{\[\[}}0:2], [2:4]]
  %1 = dist.all_reduce %x sum groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<8x16xf32, #dist.devices<[0:4]>>
  // CHECK: dist.all_reduce %{{.*}} max groups {{\[\[}}0:4]]
  %2 = dist.all_reduce %x max groups [[0:4]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<8x16xf32, #dist.devices<[0:4]>>
  // CHECK: dist.all_gather %{{.*}} dim 1 groups {{\[\[}}0, 2], [1, 3]] : {{.*}} -> tensor<8x32xf32, #dist.devices<[0:4]>>
  %3 = dist.all_gather %x dim 1 groups [[0, 2], [1, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<8x32xf32, #dist.devices<[0:4]>>
  // CHECK: dist.reduce_scatter %{{.*}} avg dim 0 groups {{\[\[}}0:4]] : {{.*}} -> tensor<2x16xf32, #dist.devices<[0:4]>>
  %4 = dist.reduce_scatter %x avg dim 0 groups [[0:4]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<2x16xf32, #dist.devices<[0:4]>>
  // CHECK: dist.all_to_all %{{.*}} split_dim 0 concat_dim 1 groups {{\[\[}}0:2], [2:4]] : {{.*}} -> tensor<4x32xf32, #dist.devices<[0:4]>>
  %5 = dist.all_to_all %x split_dim 0 concat_dim 1 groups [[0:2], [2:4]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<4x32xf32, #dist.devices<[0:4]>>
  // CHECK: dist.broadcast %{{.*}} root 0 groups {{\[\[}}0:2], [2:4]] : tensor<8x16xf32, #dist.devices<[0, 2]>> -> tensor<8x16xf32, #dist.devices<[0:4]>>
  %6 = dist.broadcast %r root 0 groups [[0:2], [2:4]] : tensor<8x16xf32, #dist.devices<[0, 2]>> -> tensor<8x16xf32, #dist.devices<[0:4]>>
  // CHECK: dist.scatter %{{.*}} root 0 dim 0 groups {{\[\[}}0:2], [2:4]] : tensor<8x16xf32, #dist.devices<[0, 2]>> -> tensor<4x16xf32, #dist.devices<[0:4]>>
  %7 = dist.scatter %r root 0 dim 0 groups [[0:2], [2:4]] : tensor<8x16xf32, #dist.devices<[0, 2]>> -> tensor<4x16xf32, #dist.devices<[0:4]>>
  // CHECK: dist.gather %{{.*}} root 1 dim 0 groups {{\[\[}}1, 0], [3, 2]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<16x16xf32, #dist.devices<[0, 2]>>
  %8 = dist.gather %x root 1 dim 0 groups [[1, 0], [3, 2]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<16x16xf32, #dist.devices<[0, 2]>>
  // CHECK: dist.reduce %{{.*}} prod root 0 groups {{\[\[}}0, 2], [1, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<8x16xf32, #dist.devices<[0:2]>>
  %9 = dist.reduce %x prod root 0 groups [[0, 2], [1, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<8x16xf32, #dist.devices<[0:2]>>
  // CHECK: dist.add {{.*}} : (tensor<8x16xf32, #dist.devices<[0:4]>>, tensor<8x16xf32, #dist.devices<[0:4]>>) -> tensor<8x16xf32, #dist.devices<[0:4]>>
  %10 = dist.add %1, %2 : (tensor<8x16xf32, #dist.devices<[0:4]>>, tensor<8x16xf32, #dist.devices<[0:4]>>) -> tensor<8x16xf32, #dist.devices<[0:4]>>
  return
}

// A hand-placed two-stage MLP: stage 0 on devices 0:2 (tensor parallel,
// partial sums all-reduced), a send to stage 1 on devices 2:4.
// CHECK-LABEL: func.func @two_stage_mlp
// CHECK-SAME: attributes {dist.mesh = @stages}
dist.mesh @stages shape = [2, 2] axes = ["pp", "tp"]
func.func @two_stage_mlp(%x: tensor<8x16xf32, #dist.devices<[0:2]>>,
                         %w1: tensor<8x32xf32, #dist.devices<[0:2]>>,
                         %w2: tensor<32x16xf32, #dist.devices<[2:4]>>)
    -> tensor<8x16xf32, #dist.devices<[2:4]>> attributes {dist.mesh = @stages} {
  %xs = dist.slice %x {starts = array<i64: 0, 0>, limits = array<i64: 8, 8>, strides = array<i64: 1, 1>} : (tensor<8x16xf32, #dist.devices<[0:2]>>) -> tensor<8x8xf32, #dist.devices<[0:2]>>
  %h = dist.matmul %xs, %w1 : (tensor<8x8xf32, #dist.devices<[0:2]>>, tensor<8x32xf32, #dist.devices<[0:2]>>) -> tensor<8x32xf32, #dist.devices<[0:2]>>
  // CHECK: dist.all_reduce %{{.*}} sum groups {{\[\[}}0:2]]
  %s = dist.all_reduce %h sum groups [[0, 1]] : tensor<8x32xf32, #dist.devices<[0:2]>> -> tensor<8x32xf32, #dist.devices<[0:2]>>
  %r = dist.relu %s : (tensor<8x32xf32, #dist.devices<[0:2]>>) -> tensor<8x32xf32, #dist.devices<[0:2]>>
  // CHECK: dist.send %{{.*}} to [2:4]
  %t = dist.send %r to [2:4] : tensor<8x32xf32, #dist.devices<[0:2]>> -> tensor<8x32xf32, #dist.devices<[2:4]>>
  %y = dist.matmul %t, %w2 : (tensor<8x32xf32, #dist.devices<[2:4]>>, tensor<32x16xf32, #dist.devices<[2:4]>>) -> tensor<8x16xf32, #dist.devices<[2:4]>>
  return %y : tensor<8x16xf32, #dist.devices<[2:4]>>
}

// Attributes in their standalone form.
// CHECK-LABEL: func.func private @standalone_attributes
// CHECK-SAME: test.devices = #dist.devices<[0:1024:8]>
// CHECK-SAME: test.groups = #dist.groups<{{\[\[}}0:2], [2:4]]>
// CHECK-SAME: test.reduction = #dist<reduction avg>
// CHECK-SAME: test.sharding = #dist.sharding<@world, {{\[\[}}], []]>
func.func private @standalone_attributes() attributes {
  test.devices = #dist.devices<[0:1024:8]>,
  test.groups = #dist.groups<[[0, 1], [2, 3]]>,
  test.reduction = #dist<reduction avg>,
  test.sharding = #dist.sharding<@world, [[], []]>
}
