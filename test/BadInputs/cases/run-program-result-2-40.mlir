func.func @main(%x: tensor<1xf32>) -> tensor<1099511627776xf32> {
  %0 = dist.expand %x {shape = array<i64: 1099511627776>} : (tensor<1xf32>) -> tensor<1099511627776xf32>
  return %0 : tensor<1099511627776xf32>
}
