func.func @reshape_of_transpose(%x: tensor<4x6xf32>) -> tensor<24xf32> {
  %0 = dist.transpose %x {permutation = array<i64: 1, 0>} : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %1 = dist.reshape %0 {shape = array<i64: 24>} : (tensor<6x4xf32>) -> tensor<24xf32>
  return %1 : tensor<24xf32>
}
