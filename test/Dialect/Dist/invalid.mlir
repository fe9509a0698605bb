// RUN: dist-opt %s -split-input-file -verify-diagnostics

// Placement attributes.

// expected-error@+1 {{device ids must be unique and increasing, got 0 after 1}}
func.func private @unsorted(tensor<4xf32, #dist.devices<[1, 0]>>)

// -----

// expected-error@+1 {{device id -1 is negative}}
func.func private @negative(tensor<4xf32, #dist.devices<[-1, 0]>>)

// -----

// expected-error@+1 {{empty device range 4:4}}
func.func private @empty_range(tensor<4xf32, #dist.devices<[4:4]>>)

// -----

// expected-error@+1 {{device range step must be positive}}
func.func private @bad_step(tensor<4xf32, #dist.devices<[0:4:0]>>)

// -----

// expected-error@+1 {{device set must not be empty}}
func.func private @no_devices(tensor<4xf32, #dist.devices<[]>>)

// -----

func.func @unequal_groups(%x: tensor<4xf32, #dist.devices<[0:3]>>) {
  // expected-error@+1 {{device groups must have equal sizes, got 2 and 1}}
  %0 = dist.all_reduce %x sum groups [[0, 1], [2]] : tensor<4xf32, #dist.devices<[0:3]>> -> tensor<4xf32, #dist.devices<[0:3]>>
  return
}

// -----

func.func @repeated_device(%x: tensor<4xf32, #dist.devices<[0:2]>>) {
  // expected-error@+1 {{device 1 appears more than once in the groups}}
  %0 = dist.all_reduce %x sum groups [[0, 1], [1, 0]] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[0:2]>>
  return
}

// -----

// Meshes and shardings.

// expected-error@+1 {{mesh has 2 sizes but 1 axis names}}
dist.mesh @m shape = [2, 2] axes = ["dp"]

// -----

// expected-error@+1 {{mesh axis "dp" is named twice}}
dist.mesh @m shape = [2, 2] axes = ["dp", "dp"]

// -----

// expected-error@+1 {{mesh axis sizes must be positive, got 0}}
dist.mesh @m shape = [0] axes = ["dp"]

// -----

// expected-error@+1 {{mesh of 4 devices lists 3 device ids}}
dist.mesh @m shape = [4] axes = ["dp"] devices = [0, 1, 2]

// -----

// expected-error@+1 {{device 1 appears twice in the mesh}}
dist.mesh @m shape = [2] axes = ["dp"] devices = [1, 1]

// -----

dist.mesh @m shape = [2, 2] axes = ["dp", "tp"]
// expected-error@+1 {{mesh axis "dp" is used more than once in a sharding}}
func.func private @twice(tensor<4x4xf32> {dist.sharding = #dist.sharding<@m, [["dp"], ["dp"]]>})

// -----

// expected-error@+1 {{unknown mesh @nowhere}}
func.func private @unknown_mesh(tensor<4x4xf32> {dist.sharding = #dist.sharding<@nowhere, [[], []]>})

// -----

dist.mesh @m shape = [2, 2] axes = ["dp", "tp"]
// expected-error@+1 {{argument 0: mesh @m has no axis "pp"}}
func.func private @unknown_axis(tensor<4x4xf32> {dist.sharding = #dist.sharding<@m, [["pp"], []]>})

// -----

dist.mesh @m shape = [2, 2] axes = ["dp", "tp"]
// expected-error@+1 {{argument 0: sharding has 1 dimensions but the tensor has rank 2}}
func.func private @rank(tensor<4x4xf32> {dist.sharding = #dist.sharding<@m, [["dp"]]>})

// -----

dist.mesh @m shape = [2, 4] axes = ["dp", "tp"]
// expected-error@+1 {{result 0: dimension 1 of size 6 is not divisible by the 8 shards of its mesh axes}}
func.func private @indivisible() -> (tensor<4x6xf32> {dist.sharding = #dist.sharding<@m, [[], ["dp", "tp"]]>})

// -----

dist.mesh @m shape = [4, 2] axes = ["dp", "tp"]
func.func @constraint(%x: tensor<4x4xf32>) {
  // expected-error@+1 {{input: dimension 0 of size 4 is not divisible by the 8 shards}}
  %0 = dist.sharding_constraint %x : tensor<4x4xf32> to #dist.sharding<@m, [["dp", "tp"], []], partial = []>
  return
}

// -----

dist.mesh @m shape = [2] axes = ["x"]
func.func @constraint_shape(%x: tensor<3x4xf32>) {
  // expected-error@+1 {{input: dimension 0 of size 3 is not divisible by the 2 shards of its mesh axes}}
  %0 = dist.sharding_constraint %x : tensor<3x4xf32> to #dist.sharding<@m, [["x"], []]>
  return
}

// -----

dist.mesh @m shape = [2] axes = ["x"]
// expected-error@+1 {{'func.func' op uses device 5 which is not in mesh @m}}
func.func @outside_mesh(%x: tensor<4xf32, #dist.devices<[0, 5]>>) attributes {dist.mesh = @m} {
  return
}

// -----

dist.mesh @m shape = [2] axes = ["x"]
func.func @group_outside_mesh(%x: tensor<4xf32, #dist.devices<[0:2]>>) attributes {dist.mesh = @m} {
  // expected-error@+1 {{'dist.send' op uses device 2 which is not in mesh @m}}
  %0 = dist.send %x to [2:4] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[2:4]>>
  return
}

// -----

// expected-error@+1 {{'dist.mesh' must name a dist.mesh symbol}}
func.func @mesh_not_symbol() attributes {dist.mesh = 3} {
  return
}

// -----

// Discardable attributes.

func.func @bad_layer(%x: tensor<4xf32>) {
  // expected-error@+1 {{'dist.layer' must be a non-negative integer layer index}}
  %0 = dist.relu %x {dist.layer = -1} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @bad_phase(%x: tensor<4xf32>) {
  // expected-error@+1 {{'dist.phase' must be "forward", "backward" or "optimizer"}}
  %0 = dist.relu %x {dist.phase = "sideways"} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// expected-error@+1 {{argument 0: 'dist.role' must be one of}}
func.func private @bad_role(tensor<4xf32> {dist.role = "weights"})

// -----

// expected-error@+1 {{argument 0: 'dist.name' must be a string}}
func.func private @bad_name(tensor<4xf32> {dist.name = 3})

// -----

// Compute ops: one device set, no mixing.

func.func @different_sets(%a: tensor<4xf32, #dist.devices<[0:2]>>, %b: tensor<4xf32, #dist.devices<[2:4]>>) {
  // expected-error@+1 {{needs all operands and results on one device set, but operand #1 is on #dist.devices<[2:4]> while earlier values are on #dist.devices<[0:2]>}}
  %0 = dist.add %a, %b : (tensor<4xf32, #dist.devices<[0:2]>>, tensor<4xf32, #dist.devices<[2:4]>>) -> tensor<4xf32, #dist.devices<[0:2]>>
  return
}

// -----

func.func @mixed(%a: tensor<4xf32, #dist.devices<[0:2]>>, %b: tensor<4xf32>) {
  // expected-error@+1 {{mixes placed and unplaced values: operand #1 is unplaced}}
  %0 = dist.add %a, %b : (tensor<4xf32, #dist.devices<[0:2]>>, tensor<4xf32>) -> tensor<4xf32, #dist.devices<[0:2]>>
  return
}

// -----

func.func @result_elsewhere(%a: tensor<4xf32, #dist.devices<[0:2]>>) {
  // expected-error@+1 {{result #0 is on #dist.devices<[0:4]>}}
  %0 = dist.relu %a : (tensor<4xf32, #dist.devices<[0:2]>>) -> tensor<4xf32, #dist.devices<[0:4]>>
  return
}

// -----

// Shape rules.

func.func @matmul_k(%a: tensor<4x8xf32>, %b: tensor<6x2xf32>) {
  // expected-error@+1 {{contracting dimensions differ: 'tensor<4x8xf32>' has 8 and 'tensor<6x2xf32>' has 6}}
  %0 = dist.matmul %a, %b : (tensor<4x8xf32>, tensor<6x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<3x4x8xf32>, %b: tensor<2x8x2xf32>) {
  // expected-error@+1 {{cannot broadcast shapes [3] and [2]}}
  %0 = dist.matmul %a, %b : (tensor<3x4x8xf32>, tensor<2x8x2xf32>) -> tensor<3x4x2xf32>
  return
}

// -----

func.func @matmul_result(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) {
  // expected-error@+1 {{inferred type(s) 'tensor<4x2xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>'}}
  %0 = dist.matmul %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @broadcast(%a: tensor<4x3xf32>, %b: tensor<2xf32>) {
  // expected-error@+1 {{cannot broadcast shapes [4, 3] and [2]}}
  %0 = dist.add %a, %b : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @element_types(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error@+1 {{operands must have the same element type, got 'f32' and 'f16'}}
  %0 = dist.mul %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @softmax_axis(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{axis 2 is out of range for rank 2}}
  %0 = dist.softmax %a {axis = 2} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @causal(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{causal softmax needs rank >= 2 and the last axis}}
  %0 = dist.softmax %a {axis = 0, causal} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @layer_norm(%a: tensor<4x3xf32>, %s: tensor<4xf32>) {
  // expected-error@+1 {{scale and bias must have the normalized shape [3], got 'tensor<4xf32>'}}
  %0 = dist.layer_norm %a, %s, %s : (tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @transpose(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{permutation [0, 0] is not a permutation of 0..1}}
  %0 = dist.transpose %a {permutation = array<i64: 0, 0>} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @reshape_count(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{cannot reshape 12 elements into 10}}
  %0 = dist.reshape %a {shape = array<i64: 5, 2>} : (tensor<4x3xf32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @reshape_two_unknown(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{shape may have only one -1}}
  %0 = dist.reshape %a {shape = array<i64: -1, -1>} : (tensor<4x3xf32>) -> tensor<12x1xf32>
  return
}

// -----

func.func @concat(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) {
  // expected-error@+1 {{inputs differ in dimension 1 which is not the concatenation axis}}
  %0 = dist.concat %a, %b {axis = 0} : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<8x3xf32>
  return
}

// -----

func.func @slice_bounds(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{slice [0:5:1] is out of bounds for dimension 0 of size 4}}
  %0 = dist.slice %a {starts = array<i64: 0, 0>, limits = array<i64: 5, 3>, strides = array<i64: 1, 1>} : (tensor<4x3xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @slice_stride(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{stride of dimension 1 is zero}}
  %0 = dist.slice %a {starts = array<i64: 0, 0>, limits = array<i64: 4, 3>, strides = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @split(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{split sizes add up to 5 but dimension 0 has 4}}
  %0:2 = dist.split %a {axis = 0, sizes = array<i64: 2, 3>} : (tensor<4x3xf32>) -> (tensor<2x3xf32>, tensor<3x3xf32>)
  return
}

// -----

func.func @pad(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{padding amounts must be non-negative}}
  %0 = dist.pad %a {low = array<i64: -1, 0>, high = array<i64: 0, 0>, interior = array<i64: 0, 0>} : (tensor<4x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

// Sizes that would wrap 64-bit integers are refused, not wrapped.

func.func @pad_overflow(%a: tensor<4xf32>) {
  // expected-error@+1 {{'dist.pad' op padded size of dimension 0 overflows int64}}
  %0 = dist.pad %a {low = array<i64: 9223372036854775807>, high = array<i64: 9223372036854775807>, interior = array<i64: 0>} : (tensor<4xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @pad_interior_overflow(%a: tensor<4xf32>) {
  // expected-error@+1 {{'dist.pad' op padded size of dimension 0 overflows int64}}
  %0 = dist.pad %a {low = array<i64: 0>, high = array<i64: 0>, interior = array<i64: 4611686018427387904>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @split_overflow(%a: tensor<2xf32>) {
  // expected-error@+1 {{'dist.split' op sum of split sizes overflows int64}}
  %0:3 = dist.split %a {axis = 0, sizes = array<i64: 9223372036854775807, 9223372036854775807, 4>} : (tensor<2xf32>) -> (tensor<9223372036854775807xf32>, tensor<9223372036854775807xf32>, tensor<4xf32>)
  return
}

// -----

func.func @concat_overflow(%a: tensor<9223372036854775807xf32>, %b: tensor<2xf32>) {
  // expected-error@+1 {{'dist.concat' op concatenated dimension 0 overflows int64}}
  %0 = dist.concat %a, %b {axis = 0} : (tensor<9223372036854775807xf32>, tensor<2xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @slice_huge_stride(%a: tensor<4xf32>) {
  // A stride of 2^63-1 takes one element: the verifier computes 1, not a
  // wrapped size.
  // expected-error@+1 {{'dist.slice' op inferred type(s) 'tensor<1xf32>' are incompatible with return type(s) of operation 'tensor<0xf32>'}}
  %0 = dist.slice %a {starts = array<i64: 0>, limits = array<i64: 4>, strides = array<i64: 9223372036854775807>} : (tensor<4xf32>) -> tensor<0xf32>
  return
}

// -----

func.func @reshape_overflow(%a: tensor<4xf32>) {
  // expected-error@+1 {{'dist.reshape' op element count of shape [4294967296, 4294967296] overflows int64}}
  %0 = dist.reshape %a {shape = array<i64: 4294967296, 4294967296>} : (tensor<4xf32>) -> tensor<4294967296x4294967296xf32>
  return
}

// -----

func.func @conv_pads_overflow(%x: tensor<1x1x8xf32>, %w: tensor<1x1x3xf32>) {
  // expected-error@+1 {{'dist.conv' op window of spatial dimension 0 overflows int64}}
  %0 = dist.conv %x, %w {strides = array<i64: 1>, pads = array<i64: 9223372036854775807, 9223372036854775807>, dilations = array<i64: 1>, group = 1} : (tensor<1x1x8xf32>, tensor<1x1x3xf32>) -> tensor<1x1x8xf32>
  return
}

// -----

func.func @take(%a: tensor<4x3xf32>, %i: tensor<2xi64>) {
  // expected-error@+1 {{axis 2 is out of range for rank 2}}
  %0 = dist.take %a, %i {axis = 2} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @take_float_indices(%a: tensor<4x3xf32>, %i: tensor<2xf32>) {
  // expected-error@+1 {{operand #1 must be ranked tensor of signless integer values}}
  %0 = dist.take %a, %i : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @expand(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{cannot broadcast shapes [4, 3] and [2, 3]}}
  %0 = dist.expand %a {shape = array<i64: 2, 3>} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @reduce_twice(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{axis -1 is reduced twice}}
  %0 = dist.reduce_sum %a {axes = array<i64: 1, -1>} : (tensor<4x3xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @cross_entropy(%a: tensor<4x3xf32>, %l: tensor<3xi64>) {
  // expected-error@+1 {{labels 'tensor<3xi64>' must have the shape of the logits 'tensor<4x3xf32>' without the class axis}}
  %0 = dist.cross_entropy %a, %l : (tensor<4x3xf32>, tensor<3xi64>) -> tensor<f32>
  return
}

// -----

func.func @mse(%a: tensor<4x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error@+1 {{prediction and target must have the same shape}}
  %0 = dist.mse_loss %a, %b : (tensor<4x3xf32>, tensor<3x4xf32>) -> tensor<f32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<2x3x3x3xf32>) {
  // expected-error@+1 {{input has 4 channels but the filter expects 3 x 1 groups}}
  %0 = dist.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x6x6xf32>
  return
}

// -----

func.func @pool_window(%x: tensor<1x4x2x2xf32>) {
  // expected-error@+1 {{window of spatial dimension 0 is larger than the padded input}}
  %0 = dist.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x2x2xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @adam_step(%w: tensor<4xf32>, %s: tensor<2xf32>) {
  // expected-error@+1 {{step must hold one element, got 'tensor<2xf32>'}}
  %0:3 = dist.adam_update %w, %w, %w, %w, %s {lr = 0.1 : f64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// Communication ops.

func.func @unplaced_collective(%x: tensor<4xf32>) {
  // expected-error@+1 {{operand must be placed on a device set, got 'tensor<4xf32>'}}
  %0 = dist.all_reduce %x sum groups [[0, 1]] : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @groups_not_partition(%x: tensor<4xf32, #dist.devices<[0:4]>>) {
  // expected-error@+1 {{must partition the operand device set #dist.devices<[0:4]>}}
  %0 = dist.all_reduce %x sum groups [[0, 1]] : tensor<4xf32, #dist.devices<[0:4]>> -> tensor<4xf32, #dist.devices<[0:4]>>
  return
}

// -----

func.func @all_gather_type(%x: tensor<4xf32, #dist.devices<[0:2]>>) {
  // expected-error@+1 {{inferred type(s) 'tensor<8xf32, #dist.devices<[0:2]>>' are incompatible}}
  %0 = dist.all_gather %x dim 0 groups [[0, 1]] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[0:2]>>
  return
}

// -----

func.func @all_gather_dim(%x: tensor<4xf32, #dist.devices<[0:2]>>) {
  // expected-error@+1 {{dim 1 is out of range for rank 1}}
  %0 = dist.all_gather %x dim 1 groups [[0, 1]] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[0:2]>>
  return
}

// -----

func.func @reduce_scatter(%x: tensor<3xf32, #dist.devices<[0:2]>>) {
  // expected-error@+1 {{dimension 0 of size 3 is not divisible by the group size 2}}
  %0 = dist.reduce_scatter %x sum dim 0 groups [[0, 1]] : tensor<3xf32, #dist.devices<[0:2]>> -> tensor<1xf32, #dist.devices<[0:2]>>
  return
}

// -----

func.func @all_to_all(%x: tensor<3x4xf32, #dist.devices<[0:2]>>) {
  // expected-error@+1 {{dimension 0 of size 3 is not divisible by the group size 2}}
  %0 = dist.all_to_all %x split_dim 0 concat_dim 1 groups [[0, 1]] : tensor<3x4xf32, #dist.devices<[0:2]>> -> tensor<1x8xf32, #dist.devices<[0:2]>>
  return
}

// -----

func.func @send_sizes(%x: tensor<4xf32, #dist.devices<[0:2]>>) {
  // expected-error@+1 {{sends between device sets of different sizes: 2 devices to 3}}
  %0 = dist.send %x to [2:5] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[2:5]>>
  return
}

// -----

func.func @send_target(%x: tensor<4xf32, #dist.devices<[0:2]>>) {
  // expected-error@+1 {{inferred type(s) 'tensor<4xf32, #dist.devices<[2:4]>>' are incompatible with return type(s) of operation 'tensor<4xf32, #dist.devices<[4:6]>>'}}
  %0 = dist.send %x to [2:4] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[4:6]>>
  return
}

// -----

func.func @broadcast_roots(%x: tensor<4xf32, #dist.devices<[0:4]>>) {
  // expected-error@+1 {{operand must live on the roots of the groups, #dist.devices<[0, 2]>, got #dist.devices<[0:4]>}}
  %0 = dist.broadcast %x root 0 groups [[0, 1], [2, 3]] : tensor<4xf32, #dist.devices<[0:4]>> -> tensor<4xf32, #dist.devices<[0:4]>>
  return
}

// -----

func.func @root_range(%x: tensor<4xf32, #dist.devices<[0:4]>>) {
  // expected-error@+1 {{root 2 is not a position in groups of size 2}}
  %0 = dist.reduce %x sum root 2 groups [[0, 1], [2, 3]] : tensor<4xf32, #dist.devices<[0:4]>> -> tensor<4xf32, #dist.devices<[0, 2]>>
  return
}

// -----

func.func @gather_result(%x: tensor<4xf32, #dist.devices<[0:4]>>) {
  // expected-error@+1 {{inferred type(s) 'tensor<8xf32, #dist.devices<[0, 2]>>' are incompatible}}
  %0 = dist.gather %x root 0 dim 0 groups [[0, 1], [2, 3]] : tensor<4xf32, #dist.devices<[0:4]>> -> tensor<8xf32, #dist.devices<[0:4]>>
  return
}

// -----

func.func @dropout_ratio(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'dist.dropout_train' op ratio must be in [0, 1), got 1}}
  %0, %1 = dist.dropout_train %x {ratio = 1.0 : f64, id = 0} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi1>)
  return
}

// -----

func.func @dropout_reference_rank(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'dist.dropout_train' op reference_shape has 1 dimensions, the input 2}}
  %0, %1 = dist.dropout_train %x {ratio = 0.1 : f64, id = 0, reference_shape = array<i64: 32>} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi1>)
  return
}

// -----

func.func @dropout_offset(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'dist.dropout_train' op reference_offset 6 of dimension 0 puts the local 4 elements outside the reference 8}}
  %0, %1 = dist.dropout_train %x {ratio = 0.1 : f64, id = 0, reference_shape = array<i64: 8, 8>, reference_offset = array<i64: 6, 0>} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi1>)
  return
}

// -----

func.func @dropout_blocks(%x: tensor<4x8xf32>, %b: tensor<i64>) {
  // expected-error@+1 {{'dist.dropout_train' op needs one block_dims and one block_sizes entry per block operand, got 0 and 0 for 1}}
  %0, %1 = dist.dropout_train %x, %b {ratio = 0.1 : f64, id = 0} : (tensor<4x8xf32>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xi1>)
  return
}

// -----

func.func @dropout_grad_mask(%g: tensor<4x8xf32>, %k: tensor<4x4xi1>) {
  // expected-error@+1 {{gradient and mask must have the same shape}}
  %0 = dist.dropout_grad %g, %k {ratio = 0.1 : f64} : (tensor<4x8xf32>, tensor<4x4xi1>) -> tensor<4x8xf32>
  return
}

// -----

func.func @attention_rank(%q: tensor<2x8x16xf32>) {
  // expected-error@+1 {{'dist.attention' op operand 'tensor<2x8x16xf32>' must be [batch, heads, sequence, head dim]}}
  %0, %1 = dist.attention %q, %q, %q : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8xf32>)
  return
}

// -----

func.func @attention_head_dim(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x8x8xf32>) {
  // expected-error@+1 {{'dist.attention' op key 'tensor<2x4x8x8xf32>' has another head dimension than the query 'tensor<2x4x8x16xf32>'}}
  %0, %1 = dist.attention %q, %k, %q : (tensor<2x4x8x16xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  return
}

// -----

func.func @attention_ratio(%q: tensor<2x4x8x16xf32>) {
  // expected-error@+1 {{'dist.attention' op ratio must be in [0, 1), got 1}}
  %0, %1 = dist.attention %q, %q, %q {dropout_ratio = 1.0 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  return
}

// -----

func.func @attention_sequence_block(%q: tensor<2x4x8x16xf32>, %b: tensor<i64>) {
  // expected-error@+1 {{'dist.attention' op only the batch and head dimensions (0, 1) have blocks, got 2}}
  %0, %1 = dist.attention %q, %q, %q, %b {dropout_ratio = 0.1 : f64, block_dims = array<i64: 2>, block_sizes = array<i64: 8>} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<i64>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  return
}

// -----

func.func @attention_offset(%q: tensor<2x4x8x16xf32>) {
  // expected-error@+1 {{'dist.attention' op reference_offset 3 of dimension 0 puts the local 2 elements outside the reference 4}}
  %0, %1 = dist.attention %q, %q, %q {dropout_ratio = 0.1 : f64, reference_shape = array<i64: 4, 4, 8, 8>, reference_offset = array<i64: 3, 0, 0, 0>} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  return
}

// -----

func.func @attention_grad_lse(%q: tensor<2x4x8x16xf32>, %lse: tensor<2x4xf32>) {
  // expected-error@+1 {{'dist.attention_grad' op logsumexp 'tensor<2x4xf32>' is not the forward's [2, 4, 8]}}
  %0, %1, %2 = dist.attention_grad %q, %q, %q, %q, %lse, %q : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>)
  return
}
