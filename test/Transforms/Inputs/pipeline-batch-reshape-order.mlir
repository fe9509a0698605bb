// A value whose batch is a minor factor of a merged dim, returned: used by
// pipeline-batch-reshape.mlir.
func.func @returns_rows(%x: tensor<4x2x8xf32> {dist.role = "data", dist.name = "x"},
                        %w: tensor<8x8xf32> {dist.role = "parameter", dist.name = "w"}) -> tensor<8x8xf32> {
  %t = dist.transpose %x {permutation = array<i64: 1, 0, 2>} : (tensor<4x2x8xf32>) -> tensor<2x4x8xf32>
  %rows = dist.reshape %t {shape = array<i64: 8, 8>} : (tensor<2x4x8xf32>) -> tensor<8x8xf32>
  %h = dist.matmul %rows, %w : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %h : tensor<8x8xf32>
}
