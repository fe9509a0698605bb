func.func @bytes_overflow_f32(%x: tensor<4611686018427387904xf32>) -> tensor<4611686018427387904xf32> {
  %0 = dist.relu %x : (tensor<4611686018427387904xf32>) -> tensor<4611686018427387904xf32>
  return %0 : tensor<4611686018427387904xf32>
}
