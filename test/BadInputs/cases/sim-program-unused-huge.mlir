func.func @main(%x: tensor<4xf32>, %y: tensor<4611686018427387903xi8>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
