func.func @f(%x: tensor<4xcomplex<f32>>) {
  %0 = dist.relu %x : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return
}
