func.func @unplaced_collective(%x: tensor<4xf32>) {
  %0 = dist.all_reduce %x sum groups [[0, 1]] : tensor<4xf32> -> tensor<4xf32>
  return
}
