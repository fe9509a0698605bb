func.func @bad_layer(%x: tensor<4xf32>) {
  %0 = dist.relu %x {dist.layer = -1} : (tensor<4xf32>) -> tensor<4xf32>
  return
}
