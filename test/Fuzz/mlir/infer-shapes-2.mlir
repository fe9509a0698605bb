func.func @callee(%x: tensor<4x3xf32>) -> tensor<?x?xf32> {
  %0 = dist.relu %x : (tensor<4x3xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @caller(%x: tensor<4x3xf32>) -> tensor<?x?xf32> {
  %0 = func.call @callee(%x) : (tensor<4x3xf32>) -> tensor<?x?xf32>
  %1 = dist.exp %0 : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}
