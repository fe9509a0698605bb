func.func @dropout_grad_mask(%g: tensor<4x8xf32>, %k: tensor<4x4xi1>) {
  %0 = dist.dropout_grad %g, %k {ratio = 0.1 : f64} : (tensor<4x8xf32>, tensor<4x4xi1>) -> tensor<4x8xf32>
  return
}
