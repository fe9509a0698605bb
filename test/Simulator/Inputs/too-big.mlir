// Three 40 GB f32 arguments on one device: 120 GB resident.
!t = tensor<100000x100000xf32, #dist.devices<[0]>>
func.func @main(%a: !t, %b: !t, %c: !t) {
  return
}
