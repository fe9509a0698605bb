// A forward program with a typo on line 3.
func.func @f(%x: tensor<4x8xf32> {dist.role = "data"}) -> tensor<f32> {
  %0 = dist.mse_loss %x, %x : (tensor<4x8xf32>, tensor<4x8xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
