// RUN: not dist-opt %s --dist-pipeline="pp=1 mesh=pipe" 2>&1 | FileCheck %s
// CHECK: pipeline-placed.mlir:[[@LINE+2]]:1: error: dist-pipeline expects an unplaced program, but argument 0 is placed
dist.mesh @m shape = [2] axes = ["dp"]
func.func @placed(%x: tensor<4xf32, #dist.devices<[0:2]>>) -> tensor<4xf32, #dist.devices<[0:2]>> attributes {dist.mesh = @m} {
  %y = dist.relu %x : (tensor<4xf32, #dist.devices<[0:2]>>) -> tensor<4xf32, #dist.devices<[0:2]>>
  return %y : tensor<4xf32, #dist.devices<[0:2]>>
}
