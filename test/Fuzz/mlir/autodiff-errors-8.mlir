dist.mesh @world shape = [2] axes = ["d"]
func.func @max_reduction(%w: tensor<4xf32, #dist.devices<[0:2]>> {dist.role = "parameter"}) -> tensor<f32, #dist.devices<[0:2]>> attributes {dist.mesh = @world} {
  %m = dist.all_reduce %w max groups [[0, 1]] : tensor<4xf32, #dist.devices<[0:2]>> -> tensor<4xf32, #dist.devices<[0:2]>>
  %s = dist.reduce_sum %m {axes = array<i64: 0>} : (tensor<4xf32, #dist.devices<[0:2]>>) -> tensor<f32, #dist.devices<[0:2]>>
  return %s : tensor<f32, #dist.devices<[0:2]>>
}
