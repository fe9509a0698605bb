func.func @dropout_offset(%x: tensor<4x8xf32>) {
  %0, %1 = dist.dropout_train %x {ratio = 0.1 : f64, id = 0, reference_shape = array<i64: 8, 8>, reference_offset = array<i64: 6, 0>} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi1>)
  return
}
