func.func private @helper(tensor<4xf32>) -> tensor<4xf32>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = dist.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %z = func.call @helper(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}
