func.func @f(%x: tensor<9223372036854775808xf32>) {
  %0 = dist.relu %x : (tensor<9223372036854775808xf32>) -> tensor<9223372036854775808xf32>
  return
}
