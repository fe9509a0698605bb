dist.mesh @world shape = [4] axes = ["d"]
func.func @placed(%w: tensor<4x4xf32, #dist.devices<[0:2]>> {dist.name = "w", dist.role = "parameter"},
                  %x: tensor<2x4xf32, #dist.devices<[0:2]>> {dist.name = "x", dist.role = "data"})
    -> tensor<f32, #dist.devices<[2:4]>> attributes {dist.mesh = @world} {
  %h = dist.matmul %x, %w : (tensor<2x4xf32, #dist.devices<[0:2]>>, tensor<4x4xf32, #dist.devices<[0:2]>>) -> tensor<2x4xf32, #dist.devices<[0:2]>>
  %s = dist.all_reduce %h sum groups [[0, 1]] : tensor<2x4xf32, #dist.devices<[0:2]>> -> tensor<2x4xf32, #dist.devices<[0:2]>>
  %g = dist.all_gather %s dim 0 groups [[0, 1]] : tensor<2x4xf32, #dist.devices<[0:2]>> -> tensor<4x4xf32, #dist.devices<[0:2]>>
  %t = dist.send %g to [2:4] : tensor<4x4xf32, #dist.devices<[0:2]>> -> tensor<4x4xf32, #dist.devices<[2:4]>>
  %r = dist.reduce_mean %t {axes = array<i64: 0, 1>} : (tensor<4x4xf32, #dist.devices<[2:4]>>) -> tensor<f32, #dist.devices<[2:4]>>
  return %r : tensor<f32, #dist.devices<[2:4]>>
}
