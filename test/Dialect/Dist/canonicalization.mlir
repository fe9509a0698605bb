// RUN: dist-opt %s -canonicalize -split-input-file | FileCheck %s

// Collectives over groups of one device fold to their operand.

!t = tensor<8x16xf32, #dist.devices<[0:4]>>

// CHECK-LABEL: func.func @singleton_groups
// CHECK-SAME: (%[[X:.*]]: tensor
// CHECK-NOT: = dist.
// CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]] :
func.func @singleton_groups(%x: !t) -> (!t, !t, !t, !t, !t, !t, !t, !t) {
  %0 = dist.all_reduce %x sum groups [[0], [1], [2], [3]] : !t -> !t
  %1 = dist.all_gather %x dim 1 groups [[0], [1], [2], [3]] : !t -> !t
  %2 = dist.reduce_scatter %x avg dim 0 groups [[0], [1], [2], [3]] : !t -> !t
  %3 = dist.all_to_all %x split_dim 0 concat_dim 1 groups [[0], [1], [2], [3]] : !t -> !t
  %4 = dist.broadcast %x root 0 groups [[0], [1], [2], [3]] : !t -> !t
  %5 = dist.scatter %x root 0 dim 0 groups [[0], [1], [2], [3]] : !t -> !t
  %6 = dist.gather %x root 0 dim 0 groups [[0], [1], [2], [3]] : !t -> !t
  %7 = dist.reduce %x max root 0 groups [[0], [1], [2], [3]] : !t -> !t
  return %0, %1, %2, %3, %4, %5, %6, %7 : !t, !t, !t, !t, !t, !t, !t, !t
}

// -----

// Groups of two devices communicate: nothing folds.

!t = tensor<8x16xf32, #dist.devices<[0:4]>>

// CHECK-LABEL: func.func @pairs_stay
// CHECK: dist.all_reduce
// CHECK: dist.all_gather
// CHECK: dist.reduce_scatter
// CHECK: dist.all_to_all
// CHECK: dist.gather
// CHECK: dist.reduce
func.func @pairs_stay(%x: !t) -> (!t, tensor<8x32xf32, #dist.devices<[0:4]>>, tensor<4x16xf32, #dist.devices<[0:4]>>, tensor<4x32xf32, #dist.devices<[0:4]>>, tensor<16x16xf32, #dist.devices<[0, 2]>>, tensor<8x16xf32, #dist.devices<[0, 2]>>) {
  %0 = dist.all_reduce %x sum groups [[0, 1], [2, 3]] : !t -> !t
  %1 = dist.all_gather %x dim 1 groups [[0, 1], [2, 3]] : !t -> tensor<8x32xf32, #dist.devices<[0:4]>>
  %2 = dist.reduce_scatter %x sum dim 0 groups [[0, 1], [2, 3]] : !t -> tensor<4x16xf32, #dist.devices<[0:4]>>
  %3 = dist.all_to_all %x split_dim 0 concat_dim 1 groups [[0, 1], [2, 3]] : !t -> tensor<4x32xf32, #dist.devices<[0:4]>>
  %4 = dist.gather %x root 0 dim 0 groups [[0, 1], [2, 3]] : !t -> tensor<16x16xf32, #dist.devices<[0, 2]>>
  %5 = dist.reduce %x sum root 0 groups [[0, 1], [2, 3]] : !t -> tensor<8x16xf32, #dist.devices<[0, 2]>>
  return %0, %1, %2, %3, %4, %5 : !t, tensor<8x32xf32, #dist.devices<[0:4]>>, tensor<4x16xf32, #dist.devices<[0:4]>>, tensor<4x32xf32, #dist.devices<[0:4]>>, tensor<16x16xf32, #dist.devices<[0, 2]>>, tensor<8x16xf32, #dist.devices<[0, 2]>>
}

// -----

// A send to the operand's own device set folds away; one to another set stays.

// CHECK-LABEL: func.func @send
// CHECK-SAME: (%[[X:.*]]: tensor
// CHECK: %[[MOVED:.*]] = dist.send %[[X]] to [2:4]
// CHECK: return %[[X]], %[[MOVED]] :
func.func @send(%x: tensor<4xf32, #dist.devices<[0:2]>>) -> (tensor<4xf32, #dist.devices<[0:2]>>, tensor<4xf32, #dist.devices<[2:4]>>) {
  %0 = dist.send %x to [0:2] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[0:2]>>
  %1 = dist.send %x to [2:4] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[2:4]>>
  return %0, %1 : tensor<4xf32, #dist.devices<[0:2]>>, tensor<4xf32, #dist.devices<[2:4]>>
}

// -----

// A reshape of a reshape reshapes the first operand once.

// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<4x6xf32>)
// CHECK-NEXT: %[[R:.*]] = dist.reshape %[[X]] {shape = array<i64: 3, -1>} : (tensor<4x6xf32>) -> tensor<3x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_reshape(%x: tensor<4x6xf32>) -> tensor<3x8xf32> {
  %0 = dist.reshape %x {shape = array<i64: 24>} : (tensor<4x6xf32>) -> tensor<24xf32>
  %1 = dist.reshape %0 {shape = array<i64: 3, -1>} : (tensor<24xf32>) -> tensor<3x8xf32>
  return %1 : tensor<3x8xf32>
}

// -----

// A reshape back to the original shape disappears; one to the operand's own
// type folds.

// CHECK-LABEL: func.func @reshape_round_trip
// CHECK-SAME: (%[[X:.*]]: tensor<4x6xf32>)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @reshape_round_trip(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %0 = dist.reshape %x {shape = array<i64: 24>} : (tensor<4x6xf32>) -> tensor<24xf32>
  %1 = dist.reshape %0 {shape = array<i64: 4, 6>} : (tensor<24xf32>) -> tensor<4x6xf32>
  %2 = dist.reshape %x {shape = array<i64: 4, -1>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %1, %2 : tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// A reshape of anything but a reshape stays.

// CHECK-LABEL: func.func @reshape_of_transpose
// CHECK: dist.transpose
// CHECK: dist.reshape
func.func @reshape_of_transpose(%x: tensor<4x6xf32>) -> tensor<24xf32> {
  %0 = dist.transpose %x {permutation = array<i64: 1, 0>} : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %1 = dist.reshape %0 {shape = array<i64: 24>} : (tensor<6x4xf32>) -> tensor<24xf32>
  return %1 : tensor<24xf32>
}
