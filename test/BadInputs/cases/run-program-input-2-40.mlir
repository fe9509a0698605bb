func.func @main(%x: tensor<1099511627776xf32>) -> tensor<1099511627776xf32> {
  return %x : tensor<1099511627776xf32>
}
