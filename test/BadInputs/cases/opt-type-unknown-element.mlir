func.func @f(%x: tensor<4xf33>) {
  %0 = dist.relu %x : (tensor<4xf33>) -> tensor<4xf33>
  return
}
