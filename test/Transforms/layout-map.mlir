// Layout maps (Keras' LayoutMap): regexes over parameter names, first match
// wins, unmatched parameters replicated. Here layer 0 is column-parallel and
// layer 1 row-parallel by their own entries; layers 2 and 3 fall through to
// the third entry: both column-parallel, so propagation re-lays out layer
// 3's weight to row-parallel with one all_to_all (fewer bytes than gathering
// the activation) and back for its update. "input" is a data argument: a
// layout map lays out parameters only.

// RUN: dist-gen mlp --layers 4 --hidden 8 --batch 4 | dist-opt --dist-autodiff=optimizer=adam -o %t.train.mlir
// RUN: dist-opt %t.train.mlir --dist-tensor-parallel="tp=2 layout-map=%S/Inputs/layout-map-mlp.json" -o %t.tp.mlir
// RUN: FileCheck %s < %t.tp.mlir
// dist-run draws random inputs, and Adam's step must be >= 1: numerics on
// the SGD step.
// RUN: dist-gen mlp --layers 4 --hidden 8 --batch 4 | dist-opt --dist-autodiff=optimizer=sgd -o %t.sgd.mlir
// RUN: dist-opt %t.sgd.mlir --dist-tensor-parallel="tp=2 layout-map=%S/Inputs/layout-map-mlp.json" -o %t.sgd.tp.mlir
// RUN: dist-run %t.sgd.tp.mlir --reference %t.sgd.mlir --seed 3 | FileCheck %s --check-prefix=EXEC

// EXEC: overall: {{.*}}: PASS

// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: tensor<8x4xf32, #dist.devices<[0:2]>> {dist.name = "layers.0.weight", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[}}], ["tp"]]>}
// CHECK-SAME: tensor<4x8xf32, #dist.devices<[0:2]>> {dist.name = "layers.1.weight", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[}}"tp"], []]>}
// CHECK-SAME: tensor<8x4xf32, #dist.devices<[0:2]>> {dist.name = "layers.2.weight", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[}}], ["tp"]]>}
// CHECK-SAME: tensor<8x4xf32, #dist.devices<[0:2]>> {dist.name = "layers.3.weight", dist.role = "parameter", dist.sharding = #dist.sharding<@world, {{\[\[}}], ["tp"]]>}
// Adam moments follow their parameter (their names extend it); the step
// counter matches nothing and is replicated.
// CHECK-SAME: tensor<8x4xf32, #dist.devices<[0:2]>> {dist.name = "layers.0.weight.adam_m", dist.role = "optimizer_state", dist.sharding = #dist.sharding<@world, {{\[\[}}], ["tp"]]>}
// CHECK-SAME: {dist.name = "adam.step", dist.role = "optimizer_state", dist.sharding = #dist.sharding<@world, []>}
// CHECK-SAME: tensor<4x8xf32, #dist.devices<[0:2]>> {dist.name = "input", dist.role = "data", dist.sharding = #dist.sharding<@world, {{\[\[}}], []]>}
// CHECK-SAME: -> (
// CHECK-SAME: tensor<8x4xf32, #dist.devices<[0:2]>> {dist.name = "layers.0.weight", dist.role = "updated_parameter", dist.sharding = #dist.sharding<@world, {{\[\[}}], ["tp"]]>}
// CHECK: dist.all_to_all %arg3 split_dim 0 concat_dim 1 {{.*}} : tensor<8x4xf32, {{.*}}> -> tensor<4x8xf32
// CHECK: dist.all_to_all {{.*}} split_dim 1 concat_dim 0 {{.*}} : tensor<4x8xf32, {{.*}}> -> tensor<8x4xf32
// CHECK: return

// RUN: not dist-opt %t.train.mlir --dist-tensor-parallel="tp=2 layout-map=%S/Inputs/layout-map-bad-axis.json" 2>&1 | FileCheck %s --check-prefix=AXIS
// AXIS: error: layout map entry "layers\..*\.weight" names axis "tq" but mesh @world has axes [tp]

// RUN: not dist-opt %t.train.mlir --dist-tensor-parallel="tp=2 layout-map=%S/Inputs/layout-map-bad-json.json" 2>&1 | FileCheck %s --check-prefix=JSON
// JSON: error: {{.*}}layout-map-bad-json.json:3:7: invalid JSON: syntax error while parsing object separator

// RUN: not dist-opt %t.train.mlir --dist-tensor-parallel="tp=2 layout-map=%S/Inputs/layout-map-rank.json" 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: error: argument 0 (layers.0.weight): layout of "layers\.0\.weight" has 1 dimensions but the value has rank 2

// RUN: not dist-opt %t.train.mlir --dist-tensor-parallel="tp=3 layout-map=%S/Inputs/layout-map-mlp.json" 2>&1 | FileCheck %s --check-prefix=DIVIDE
// DIVIDE: error: argument 0 (layers.0.weight): "^layers\.0\.weight" splits dimension 1 of size 8 into 3 shards, which does not divide it

// RUN: not dist-opt %t.train.mlir --dist-tensor-parallel="tp=2 layout-map=%S/Inputs/layout-map-regex.json" 2>&1 | FileCheck %s --check-prefix=REGEX
// REGEX: error: {{.*}}layout-map-regex.json: invalid regex "layers(": parentheses not balanced

// RUN: not dist-opt %t.train.mlir --dist-tensor-parallel="tp=2 layout-map=%S/Inputs/missing.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: {{.*}}missing.json: cannot open layout map
