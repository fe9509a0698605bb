func.func @matmul_conflict(%a: tensor<4x8xf32>, %b: tensor<6x2xf32>) -> tensor<?x?xf32> {
  %0 = dist.exp %b : (tensor<6x2xf32>) -> tensor<?x?xf32>
  %1 = dist.matmul %a, %0 : (tensor<4x8xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}
