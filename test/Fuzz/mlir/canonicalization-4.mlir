func.func @reshape_round_trip(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %0 = dist.reshape %x {shape = array<i64: 24>} : (tensor<4x6xf32>) -> tensor<24xf32>
  %1 = dist.reshape %0 {shape = array<i64: 4, 6>} : (tensor<24xf32>) -> tensor<4x6xf32>
  %2 = dist.reshape %x {shape = array<i64: 4, -1>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %1, %2 : tensor<4x6xf32>, tensor<4x6xf32>
}
