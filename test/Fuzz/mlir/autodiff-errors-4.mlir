func.func @integer_parameter(%w: tensor<4xi64> {dist.role = "parameter"}, %x: tensor<4xf32>) -> tensor<f32> {
  %s = dist.reduce_sum %x {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
