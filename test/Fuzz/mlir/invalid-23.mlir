func.func @bad_phase(%x: tensor<4xf32>) {
  %0 = dist.relu %x {dist.phase = "sideways"} : (tensor<4xf32>) -> tensor<4xf32>
  return
}
