func.func @main(%x: tensor<4294967296x4294967296xf32>) {
  return
}
