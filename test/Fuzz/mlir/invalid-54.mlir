func.func @expand(%a: tensor<4x3xf32>) {
  %0 = dist.expand %a {shape = array<i64: 2, 3>} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}
