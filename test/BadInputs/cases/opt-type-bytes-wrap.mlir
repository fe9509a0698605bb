func.func @f(%x: tensor<4611686018427387904xf32>) {
  %0 = dist.relu %x : (tensor<4611686018427387904xf32>) -> tensor<4611686018427387904xf32>
  return
}
