// Convolution and pooling (ONNX semantics); values checked with NumPy.
// RUN: dist-run %s --entry forward --print-values | FileCheck %s --check-prefix=FWD
// RUN: dist-run %s --entry backward --print-values | FileCheck %s --check-prefix=BWD

// x is 1x1x3x3 = 1..9. A 2x2 filter of ones sums each 2x2 window; pads
// [1, 1, 1, 1] with stride 2 puts windows across the border.
// FWD: conv: f32 [1, 1, 2, 2] = {{\[\[\[\[}}13, 17], [25, 29]]]]
// FWD: conv_padded: f32 [1, 1, 2, 2] = {{\[\[\[\[}}1, 5], [11, 28]]]]
// FWD: max: f32 [1, 1, 2, 2] = {{\[\[\[\[}}5, 6], [8, 9]]]]
// FWD: avg_padded: f32 [1, 1, 2, 2] = {{\[\[\[\[}}1, 2.5], [5.5, 7]]]]
// FWD: avg_counting_pads: f32 [1, 1, 2, 2] = {{\[\[\[\[}}0.25, 1.25], [2.75, 7]]]]
// FWD: global: f32 [1, 1, 1, 1] = {{\[\[\[\[}}5]]]]
func.func @forward() -> (tensor<1x1x2x2xf32> {dist.name = "conv"}, tensor<1x1x2x2xf32> {dist.name = "conv_padded"},
                         tensor<1x1x2x2xf32> {dist.name = "max"}, tensor<1x1x2x2xf32> {dist.name = "avg_padded"},
                         tensor<1x1x2x2xf32> {dist.name = "avg_counting_pads"}, tensor<1x1x1x1xf32> {dist.name = "global"}) {
  %x = dist.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %w = dist.constant dense<1.0> : tensor<1x1x2x2xf32>
  %b = dist.constant dense<1.0> : tensor<1xf32>
  %conv = dist.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  %conv_padded = dist.conv %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %max = dist.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  %avg_padded = dist.avg_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  %avg_counting_pads = dist.avg_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, count_include_pad} : (tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  %global = dist.global_avg_pool %x : (tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
  return %conv, %conv_padded, %max, %avg_padded, %avg_counting_pads, %global : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>
}

// With an upstream gradient of ones: every input pixel gets the number of
// windows covering it (conv, avg / 4), the filter gets the window sums, and
// max pool routes each 1 to its window's maximum.
// BWD: dx: f32 [1, 1, 3, 3] = {{\[\[\[\[}}1, 2, 1], [2, 4, 2], [1, 2, 1]]]]
// BWD: dw: f32 [1, 1, 2, 2] = {{\[\[\[\[}}12, 16], [24, 28]]]]
// BWD: dmax: f32 [1, 1, 3, 3] = {{\[\[\[\[}}0, 0, 0], [0, 1, 1], [0, 1, 1]]]]
// BWD: davg: f32 [1, 1, 3, 3] = {{\[\[\[\[}}0.25, 0.5, 0.25], [0.5, 1, 0.5], [0.25, 0.5, 0.25]]]]
func.func @backward() -> (tensor<1x1x3x3xf32> {dist.name = "dx"}, tensor<1x1x2x2xf32> {dist.name = "dw"},
                          tensor<1x1x3x3xf32> {dist.name = "dmax"}, tensor<1x1x3x3xf32> {dist.name = "davg"}) {
  %x = dist.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %w = dist.constant dense<1.0> : tensor<1x1x2x2xf32>
  %dy = dist.constant dense<1.0> : tensor<1x1x2x2xf32>
  %dx = dist.conv_grad_input %dy, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, input_shape = array<i64: 1, 1, 3, 3>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x3x3xf32>
  %dw = dist.conv_grad_filter %dy, %x {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, filter_shape = array<i64: 1, 1, 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  %dmax = dist.max_pool_grad %dy, %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x2x2xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  %davg = dist.avg_pool_grad %dy {kernel_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, input_shape = array<i64: 1, 1, 3, 3>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x3x3xf32>
  return %dx, %dw, %dmax, %davg : tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>
}
