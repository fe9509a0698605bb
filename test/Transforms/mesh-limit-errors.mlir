// Pass options that build a mesh refuse more devices than the dialect allows
// (2^20) with one line, before building anything.
// RUN: not dist-opt %s --dist-data-parallel=dp=1099511627776 2>&1 | FileCheck %s
// RUN: not dist-opt %s --dist-tensor-parallel=tp=4294967296 2>&1 | FileCheck %s
// RUN: not dist-opt %s --dist-pipeline=pp=4294967296 2>&1 | FileCheck %s
// RUN: not dist-opt %s '--dist-parallelize=dp=1048576 tp=2' 2>&1 | FileCheck %s
// RUN: not dist-opt %s '--dist-parallelize=dp=4294967296 tp=4294967296 pp=4294967296' 2>&1 | FileCheck %s

// CHECK: error: mesh has more than 1048576 devices, the dialect's limit

func.func @mlp(%w: tensor<8x8xf32> {dist.name = "w", dist.role = "parameter"},
               %x: tensor<8x8xf32> {dist.name = "input", dist.role = "data"}) -> tensor<8x8xf32> {
  %y = dist.matmul %x, %w : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
