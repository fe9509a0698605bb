// Tensor-parallel configurations that cannot work are one-line errors.

// RUN: dist-gen gpt --layers 1 --hidden 16 --heads 2 --seq 4 --vocab 16 --batch 2 | not dist-opt --dist-tensor-parallel=tp=4 2>&1 | FileCheck %s --check-prefix=HEADS
// HEADS: error: tp=4 does not divide the 2 attention heads of layers.0.attn.qkv.weight

// RUN: dist-gen mlp --layers 2 --hidden 6 --batch 4 | not dist-opt --dist-tensor-parallel=tp=4 2>&1 | FileCheck %s --check-prefix=HIDDEN
// HIDDEN: error: argument 0 (layers.0.weight): "^layers\.[0-9]*[02468]\.weight" splits dimension 1 of size 6 into 4 shards, which does not divide it

// RUN: not dist-opt %s --dist-tensor-parallel=tp=2 2>&1 | FileCheck %s --check-prefix=NAMES
// NAMES: error: no parameter has a name Megatron layouts know

// RUN: not dist-opt %s --dist-tensor-parallel 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: error: no mesh @world: give the size of "tp"

func.func @f(%x: tensor<4x8xf32> {dist.name = "x", dist.role = "data"},
             %w: tensor<8x8xf32> {dist.name = "w", dist.role = "parameter"}) -> tensor<4x8xf32> {
  %y = dist.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
