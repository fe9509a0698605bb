func.func @concat_overflow(%a: tensor<9223372036854775807xf32>, %b: tensor<2xf32>) {
  %0 = dist.concat %a, %b {axis = 0} : (tensor<9223372036854775807xf32>, tensor<2xf32>) -> tensor<1xf32>
  return
}
