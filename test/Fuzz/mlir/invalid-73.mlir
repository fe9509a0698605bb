func.func @dropout_reference_rank(%x: tensor<4x8xf32>) {
  %0, %1 = dist.dropout_train %x {ratio = 0.1 : f64, id = 0, reference_shape = array<i64: 32>} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi1>)
  return
}
