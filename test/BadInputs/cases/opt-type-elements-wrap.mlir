func.func @f(%x: tensor<4294967296x4294967296xf32>) {
  %0 = dist.relu %x : (tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return
}
