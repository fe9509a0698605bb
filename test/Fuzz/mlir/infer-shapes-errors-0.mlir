func.func @conflict(%a: tensor<8xf32>, %b: tensor<4xf32>) -> tensor<?xf32> {
  %0 = dist.relu %b : (tensor<4xf32>) -> tensor<?xf32>
  %1 = dist.add %a, %0 : (tensor<8xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}
