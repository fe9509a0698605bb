func.func @dropout_blocks(%x: tensor<4x8xf32>, %b: tensor<i64>) {
  %0, %1 = dist.dropout_train %x, %b {ratio = 0.1 : f64, id = 0} : (tensor<4x8xf32>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xi1>)
  return
}
