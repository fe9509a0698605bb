func.func private @helper(tensor<4xf32>) -> tensor<4xf32>

func.func @call(%w: tensor<4xf32> {dist.role = "parameter"}) -> tensor<f32> {
  %c = func.call @helper(%w) : (tensor<4xf32>) -> tensor<4xf32>
  %s = dist.reduce_sum %c {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
