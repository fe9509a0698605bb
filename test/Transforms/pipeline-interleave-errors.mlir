// Interleaving's errors: one line each, naming the option.

// RUN: not dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=2 microbatches=2 interleave=3" 2>&1 | FileCheck %s --check-prefix=LAYERS
// LAYERS: pipeline-mlp4.mlir:4:1: error: pp x interleave = 2 x 3 = 6 is larger than the number of layers (4)

// Megatron-LM's interleaved schedule takes the microbatches in groups of pp.
// RUN: not dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=2 microbatches=1 interleave=2" 2>&1 | FileCheck %s --check-prefix=MULTIPLE
// RUN: not dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-parallelize="pp=2 microbatches=1 interleave=2" 2>&1 | FileCheck %s --check-prefix=MULTIPLE
// MULTIPLE: error: interleave = 2 needs microbatches to be a multiple of pp: 1 microbatches, pp = 2
// MULTIPLE-NOT: error

// RUN: not dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=2 microbatches=2 interleave=2 schedule=gpipe" 2>&1 | FileCheck %s --check-prefix=GPIPE
// GPIPE: error: interleave = 2 needs schedule=1f1b

// RUN: not dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-parallelize="pp=2 microbatches=2 interleave=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: interleave must be at least 1, got 0

// RUN: not dist-opt %S/Inputs/pipeline-mlp4.mlir --dist-pipeline="pp=2 microbatches=2 interleave=2 first-layers=2" 2>&1 | FileCheck %s --check-prefix=ENDS
// ENDS: pipeline-mlp4.mlir:4:1: error: first-layers = 2 and last-layers = 0 leave 2 of the 4 layers for the 3 other chunks of pp x interleave = 2 x 2 = 4
