// Impossible configurations of dist-parallelize: one line at the place
// concerned, non-zero exit, never a silent truncation.
// RUN: dist-gen gpt --layers 2 --hidden 32 --heads 4 --seq 8 --vocab 64 --batch 8 | dist-opt --dist-autodiff=optimizer=sgd -o %t.train.mlir

// RUN: not dist-opt %t.train.mlir --dist-parallelize="tp=3" 2>&1 | FileCheck %s --check-prefix=HEADS
// HEADS: error: tp=3 does not divide the 4 attention heads of layers.0.attn.qkv.weight

// RUN: not dist-opt %t.train.mlir --dist-parallelize="pp=3" 2>&1 | FileCheck %s --check-prefix=LAYERS
// LAYERS: error: pp = 3 is larger than the number of layers (2)

// RUN: not dist-opt %t.train.mlir --dist-parallelize="dp=2 microbatches=3" 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: error: batch size 8 of data argument 28 ('tokens') is not divisible by dp x microbatches = 2 x 3

// RUN: not dist-opt %t.train.mlir --dist-parallelize="tp=2 layout-map=%S/Inputs/parallelize-unknown-axis.json" 2>&1 | FileCheck %s --check-prefix=AXIS
// AXIS: error: layout map entry "layers\..*\.mlp\.fc1\.weight" names axis "ep" but mesh @world has axes [pp, dp, tp]

// A split that does not divide: fc1's 128 columns over tp = 3.
// RUN: not dist-opt %t.train.mlir --dist-parallelize="tp=3 layout-map=%S/Inputs/parallelize-fc1.json" 2>&1 | FileCheck %s --check-prefix=DIVIDE
// DIVIDE: error: argument 10 (layers.0.mlp.fc1.weight): "layers\..*\.mlp\.fc1\.weight" splits dimension 1 of size 128 into 3 shards, which does not divide it

// RUN: not dist-opt %t.train.mlir --dist-parallelize="dp=0" 2>&1 | FileCheck %s --check-prefix=DEGREE
// DEGREE: error: dp must be at least 1, got 0
// RUN: not dist-opt %t.train.mlir --dist-parallelize="pp=2 microbatches=0" 2>&1 | FileCheck %s --check-prefix=MICRO
// MICRO: error: microbatches must be at least 1, got 0
// RUN: not dist-opt %t.train.mlir --dist-parallelize="schedule=zigzag" 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// SCHEDULE: for the --schedule option: Cannot find option named 'zigzag'!
