dist.mesh @world shape = [2] axes = ["dp"]

func.func @softmax_over_batch(%x: tensor<4x8xf32> {dist.role = "data"}, %w: tensor<8x8xf32> {dist.role = "parameter"}) -> tensor<4x8xf32> {
  %h = dist.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %p = dist.softmax %h {axis = 0} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
