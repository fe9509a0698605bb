// Generated inputs: uniform in [-1, 1), except the weight of a matmul, which
// is scaled by 1/sqrt(contracting size) = 1/8 here (nn.Linear's init).
// RUN: dist-run %s --seed 1 | FileCheck %s

// CHECK: weight: f32 [64, 16] mean={{[-0-9.e]+}} min=-0.12{{[0-9]+}} max=0.12{{[0-9]+}}
// CHECK: input: f32 [4, 64] mean={{[-0-9.e]+}} min=-0.9{{[0-9]+}} max=0.9{{[0-9]+}}
// CHECK: output: f32 [4, 16]
func.func @main(%x: tensor<4x64xf32> {dist.name = "input"},
                %w: tensor<64x16xf32> {dist.name = "weight"})
    -> (tensor<64x16xf32> {dist.name = "weight"}, tensor<4x64xf32> {dist.name = "input"},
        tensor<4x16xf32> {dist.name = "output"}) {
  %y = dist.matmul %x, %w : (tensor<4x64xf32>, tensor<64x16xf32>) -> tensor<4x16xf32>
  return %w, %x, %y : tensor<64x16xf32>, tensor<4x64xf32>, tensor<4x16xf32>
}
