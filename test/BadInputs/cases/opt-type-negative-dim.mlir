func.func @f(%x: tensor<-1xf32>) {
  %0 = dist.relu %x : (tensor<-1xf32>) -> tensor<-1xf32>
  return
}
