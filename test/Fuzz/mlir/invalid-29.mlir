func.func @matmul_k(%a: tensor<4x8xf32>, %b: tensor<6x2xf32>) {
  %0 = dist.matmul %a, %b : (tensor<4x8xf32>, tensor<6x2xf32>) -> tensor<4x2xf32>
  return
}
