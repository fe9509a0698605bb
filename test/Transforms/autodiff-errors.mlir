// RUN: dist-opt %s -split-input-file -verify-diagnostics --dist-autodiff
// RUN: not dist-opt %s -split-input-file --dist-autodiff=optimizer=momentum 2>&1 | FileCheck %s --check-prefix=OPTIMIZER
// RUN: not dist-opt %s -split-input-file '--dist-autodiff=optimizer=sgd lr=-1' 2>&1 | FileCheck %s --check-prefix=LR
// RUN: not dist-opt %s -split-input-file '--dist-autodiff=optimizer=adam beta1=1' 2>&1 | FileCheck %s --check-prefix=BETA
// RUN: not dist-opt %s -split-input-file --dist-autodiff=func=nowhere 2>&1 | FileCheck %s --check-prefix=FUNC

// OPTIMIZER: for the --optimizer option: Cannot find option named 'momentum'!
// LR: error: dist-autodiff: lr must be positive, got -1.000000e+00
// BETA: error: dist-autodiff: beta1 and beta2 must be in [0, 1), got 1.000000e+00 and 9.990000e-01
// FUNC: error: dist-autodiff: no function named 'nowhere'

// expected-error@+1 {{'func.func' op has no loss to differentiate: mark one result with dist.role = "loss"}}
func.func @two_results(%w: tensor<4xf32> {dist.role = "parameter"}) -> (tensor<f32>, tensor<f32>) {
  %s = dist.reduce_sum %w {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %s, %s : tensor<f32>, tensor<f32>
}

// -----

// expected-error@+1 {{'func.func' op has several results with dist.role = "loss" (results 0 and 1)}}
func.func @two_losses(%w: tensor<4xf32> {dist.role = "parameter"}) -> (tensor<f32> {dist.role = "loss"}, tensor<f32> {dist.role = "loss"}) {
  %s = dist.reduce_sum %w {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %s, %s : tensor<f32>, tensor<f32>
}

// -----

func.func @vector_loss(%w: tensor<4xf32> {dist.role = "parameter"}) -> tensor<4xf32> {
  // expected-error@+1 {{the loss must be a floating-point scalar, got 'tensor<4xf32>'}}
  %r = dist.relu %w : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// expected-error@+1 {{'func.func' op has no argument with dist.role = "parameter": nothing to train}}
func.func @no_parameters(%x: tensor<4xf32>) -> tensor<f32> {
  %s = dist.reduce_sum %x {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// expected-error@+1 {{'func.func' op parameter argument 0 must be a floating-point tensor, got 'tensor<4xi64>'}}
func.func @integer_parameter(%w: tensor<4xi64> {dist.role = "parameter"}, %x: tensor<4xf32>) -> tensor<f32> {
  %s = dist.reduce_sum %x {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// expected-error@+1 {{'func.func' op is already a training step (argument 1 is optimizer state)}}
func.func @already_trained(%w: tensor<4xf32> {dist.role = "parameter"}, %m: tensor<4xf32> {dist.role = "optimizer_state"}) -> tensor<f32> {
  %s = dist.reduce_sum %w {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

func.func private @helper(tensor<4xf32>) -> tensor<4xf32>

func.func @call(%w: tensor<4xf32> {dist.role = "parameter"}) -> tensor<f32> {
  // expected-error@+1 {{'func.call' op has no gradient rule}}
  %c = func.call @helper(%w) : (tensor<4xf32>) -> tensor<4xf32>
  %s = dist.reduce_sum %c {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

func.func @second_order(%w: tensor<4xf32> {dist.role = "parameter"}, %x: tensor<4xf32>) -> tensor<f32> {
  // expected-error@+1 {{'dist.gelu_grad' op has no gradient rule (second-order differentiation of this op is not supported)}}
  %g = dist.gelu_grad %w, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = dist.reduce_sum %g {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

dist.mesh @world shape = [2] axes = ["d"]
func.func @max_reduction(%w: tensor<4xf32, #dist.devices<[0:2]>> {dist.role = "parameter"}) -> tensor<f32, #dist.devices<[0:2]>> attributes {dist.mesh = @world} {
  // expected-error@+1 {{'dist.all_reduce' op has no gradient rule for reduction 'max' (only sum and avg)}}
  %m = dist.all_reduce %w max groups [[0, 1]] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[0:2]>>
  %s = dist.reduce_sum %m {axes = array<i64: 0>} : (tensor<4xf32, #dist.devices<[0:2]>>) -> tensor<f32, #dist.devices<[0:2]>>
  return %s : tensor<f32, #dist.devices<[0:2]>>
}

// -----

func.func @backward_ops(%w: tensor<4xf32> {dist.role = "parameter"}) -> tensor<f32> {
  // expected-error@+1 {{'dist.reduce_sum' op is already in the "backward" phase: the function is already a training step}}
  %s = dist.reduce_sum %w {axes = array<i64: 0>, dist.phase = "backward"} : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// expected-error@+1 {{'func.func' op argument 1 has the dynamic shape 'tensor<?x8xf32>': dist-autodiff needs static shapes (give the inputs static shapes and run dist-infer-shapes first)}}
func.func @dynamic_input(%w: tensor<8x4xf32> {dist.role = "parameter"}, %x: tensor<?x8xf32>) -> tensor<f32> {
  %h = dist.matmul %x, %w : (tensor<?x8xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
  %s = dist.reduce_sum %h {axes = array<i64: 0, 1>} : (tensor<?x4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

func.func @dynamic_result(%w: tensor<8x4xf32> {dist.role = "parameter"}, %x: tensor<2x8xf32>) -> tensor<f32> {
  // expected-error@+1 {{'dist.matmul' op result has the dynamic shape 'tensor<?x4xf32>': dist-autodiff needs static shapes (run dist-infer-shapes first)}}
  %h = dist.matmul %x, %w : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
  %s = dist.reduce_sum %h {axes = array<i64: 0, 1>} : (tensor<?x4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
