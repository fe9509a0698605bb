func.func @matmul_result(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) {
  %0 = dist.matmul %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x3xf32>
  return
}
