// Every error is one line at the function (or op) concerned.

// RUN: not dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=5" 2>&1 | FileCheck %s --check-prefix=LAYERS
// LAYERS: pipeline-mlp4.mlir:4:1: error: pp = 5 is larger than the number of layers (4)

// RUN: not dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=2 microbatches=3" 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: pipeline-mlp4.mlir:4:1: error: batch size 16 of data argument 4 ('input') is not divisible by 3 microbatches

// RUN: not dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=2 microbatches=0" 2>&1 | FileCheck %s --check-prefix=MB
// MB: error: microbatches must be at least 1, got 0

// RUN: not dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=0" 2>&1 | FileCheck %s --check-prefix=PP
// PP: error: pp must be at least 1, got 0

// RUN: not dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=2 schedule=zigzag" 2>&1 | FileCheck %s --check-prefix=SCHED
// SCHED: for the --schedule option: Cannot find option named 'zigzag'!

// RUN: not dist-opt %s --dist-pipeline="pp=2 mesh=world" 2>&1 | FileCheck %s --check-prefix=MESH
// MESH: pipeline-errors.mlir:[[@LINE+1]]:1: error: mesh @world has no axis "pp"
dist.mesh @world shape = [2] axes = ["dp"]

// RUN: not dist-opt %s --dist-pipeline="pp=1 microbatches=2 mesh=other" 2>&1 | FileCheck %s --check-prefix=WHOLE
// WHOLE: pipeline-errors.mlir:[[@LINE+3]]:8: error: 'dist.softmax' op needs the whole batch dimension; it cannot be split into microbatches
func.func @softmax_over_batch(%x: tensor<4x8xf32> {dist.role = "data"}, %w: tensor<8x8xf32> {dist.role = "parameter"}) -> tensor<4x8xf32> {
  %h = dist.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %p = dist.softmax %h {axis = 0} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
