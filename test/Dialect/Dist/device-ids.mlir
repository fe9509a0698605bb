// RUN: dist-opt %s | FileCheck %s
// RUN: dist-opt %s | dist-opt | FileCheck %s
//
// Device ids are any integer from 0 to 2^63-1: a run whose exclusive end
// would pass 2^63-1 prints its last id on its own, so every set round-trips.

// CHECK-LABEL: func.func private @near_max
// CHECK-SAME: #dist.devices<[9223372036854775806, 9223372036854775807]>
func.func private @near_max(tensor<4xf32, #dist.devices<[9223372036854775806, 9223372036854775807]>>)

// CHECK-LABEL: func.func private @run_to_max
// CHECK-SAME: #dist.devices<[9223372036854775804:9223372036854775807, 9223372036854775807]>
func.func private @run_to_max(tensor<4xf32, #dist.devices<[9223372036854775804:9223372036854775807, 9223372036854775807]>>)

// Ranges whose `id += step` passes 2^63-1 (this looped forever): two ids.
// CHECK-LABEL: func.func private @big_step
// CHECK-SAME: #dist.devices<[9223372036854775800, 9223372036854775805]>
func.func private @big_step(tensor<4xf32, #dist.devices<[9223372036854775800:9223372036854775807:5]>>)

// CHECK-LABEL: func.func private @near_max_step
// CHECK-SAME: #dist.devices<[9223372036854775000, 9223372036854775500]>
func.func private @near_max_step(tensor<4xf32, #dist.devices<[9223372036854775000:9223372036854775807:500]>>)

// CHECK-LABEL: func.func private @huge_step
// CHECK-SAME: #dist.devices<[0, 4611686018427387904]>
func.func private @huge_step(tensor<4xf32, #dist.devices<[0:9223372036854775807:4611686018427387904]>>)

// Ids of 2^32 and more in a mesh: looked up without a dense table.
// CHECK: dist.mesh @far shape = [2] axes = ["x"] devices = [0, 4294967296]
dist.mesh @far shape = [2] axes = ["x"] devices = [0, 4294967296]

// CHECK-LABEL: func.func @on_far_device
func.func @on_far_device(%x: tensor<4xf32, #dist.devices<[4294967296]>>) -> tensor<4xf32, #dist.devices<[4294967296]>> attributes {dist.mesh = @far} {
  %0 = dist.relu %x : (tensor<4xf32, #dist.devices<[4294967296]>>) -> tensor<4xf32, #dist.devices<[4294967296]>>
  return %0 : tensor<4xf32, #dist.devices<[4294967296]>>
}
