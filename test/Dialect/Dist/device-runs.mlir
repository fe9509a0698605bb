// RUN: dist-opt %s | FileCheck %s
// RUN: dist-opt %s | dist-opt | FileCheck %s
//
// Device sets and groups are stored as runs: every spelling of a set is one
// attribute, printed in its canonical runs, and a set of 2^20 devices is one
// run through parsing, verification, type inference and printing.

// CHECK-LABEL: func.func private @spellings
// CHECK-SAME: #dist.devices<[0:4]>
// CHECK-SAME: #dist.devices<[0:4]>
// CHECK-SAME: #dist.devices<[0:6:2, 5:7]>
// CHECK-SAME: #dist.devices<[0, 5]>
// CHECK-SAME: #dist.devices<[3:1048579]>
func.func private @spellings(tensor<4xf32, #dist.devices<[0, 1, 2, 3]>>,
                             tensor<4xf32, #dist.devices<[0:2, 2:4]>>,
                             tensor<4xf32, #dist.devices<[0, 2, 4:7]>>,
                             tensor<4xf32, #dist.devices<[0:10:5]>>,
                             tensor<4xf32, #dist.devices<[3:1048579]>>)

// CHECK: dist.mesh @world shape = [1048576] axes = ["dp"]
dist.mesh @world shape = [1048576] axes = ["dp"]

// CHECK-LABEL: func.func @huge
func.func @huge(%p: tensor<4xf32, #dist.devices<[0:1048576]>> {dist.sharding = #dist.sharding<@world, [[]]>},
                %h: tensor<4xf32, #dist.devices<[0:524288]>>)
    -> (tensor<4xf32, #dist.devices<[0:1048576]>>, tensor<4xf32, #dist.devices<[524288:1048576]>>) attributes {dist.mesh = @world} {
  // The groups along an inner axis unite to one run.
  // CHECK: dist.all_reduce %{{.*}} sum groups {{\[\[}}0:1048576:2], [1:1048577:2]] : tensor<4xf32, #dist.devices<[0:1048576]>>
  %0 = dist.all_reduce %p sum groups [[0:1048576:2], [1:1048576:2]] : tensor<4xf32, #dist.devices<[0:1048576]>> -> tensor<4xf32, #dist.devices<[0:1048576]>>
  // CHECK: dist.all_reduce %{{.*}} max groups {{\[\[}}0:1048576]]
  %1 = dist.all_reduce %0 max groups [[0:1048576]] : tensor<4xf32, #dist.devices<[0:1048576]>> -> tensor<4xf32, #dist.devices<[0:1048576]>>
  // CHECK: dist.all_gather %{{.*}} dim 0 groups {{\[\[}}0:524288], [524288:1048576]]
  // CHECK-SAME: -> tensor<2097152xf32, #dist.devices<[0:1048576]>>
  %2 = dist.all_gather %1 dim 0 groups [[0:524288], [524288:1048576]] : tensor<4xf32, #dist.devices<[0:1048576]>> -> tensor<2097152xf32, #dist.devices<[0:1048576]>>
  // CHECK: dist.send %{{.*}} to [524288:1048576]
  %3 = dist.send %h to [524288:1048576] : tensor<4xf32, #dist.devices<[0:524288]>> -> tensor<4xf32, #dist.devices<[524288:1048576]>>
  return %1, %3 : tensor<4xf32, #dist.devices<[0:1048576]>>, tensor<4xf32, #dist.devices<[524288:1048576]>>
}
