func.func @reshape_of_reshape(%x: tensor<4x6xf32>) -> tensor<3x8xf32> {
  %0 = dist.reshape %x {shape = array<i64: 24>} : (tensor<4x6xf32>) -> tensor<24xf32>
  %1 = dist.reshape %0 {shape = array<i64: 3, -1>} : (tensor<24xf32>) -> tensor<3x8xf32>
  return %1 : tensor<3x8xf32>
}
