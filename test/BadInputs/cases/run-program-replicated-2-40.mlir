func.func @main(%x: tensor<1073741824xf32, #dist.devices<[0:1024]>>) -> tensor<1073741824xf32, #dist.devices<[0:1024]>> {
  return %x : tensor<1073741824xf32, #dist.devices<[0:1024]>>
}
