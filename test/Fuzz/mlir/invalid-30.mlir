func.func @matmul_batch(%a: tensor<3x4x8xf32>, %b: tensor<2x8x2xf32>) {
  %0 = dist.matmul %a, %b : (tensor<3x4x8xf32>, tensor<2x8x2xf32>) -> tensor<3x4x2xf32>
  return
}
