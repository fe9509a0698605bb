!t = tensor<8x16xf32, #dist.devices<[0:4]>>

func.func @pairs_stay(%x: !t) -> (!t, tensor<8x32xf32, #dist.devices<[0:4]>>, tensor<4x16xf32, #dist.devices<[0:4]>>, tensor<4x32xf32, #dist.devices<[0:4]>>, tensor<16x16xf32, #dist.devices<[0, 2]>>, tensor<8x16xf32, #dist.devices<[0, 2]>>) {
  %0 = dist.all_reduce %x sum groups [[0, 1], [2, 3]] : !t -> !t
  %1 = dist.all_gather %x dim 1 groups [[0, 1], [2, 3]] : !t -> tensor<8x32xf32, #dist.devices<[0:4]>>
  %2 = dist.reduce_scatter %x sum dim 0 groups [[0, 1], [2, 3]] : !t -> tensor<4x16xf32, #dist.devices<[0:4]>>
  %3 = dist.all_to_all %x split_dim 0 concat_dim 1 groups [[0, 1], [2, 3]] : !t -> tensor<4x32xf32, #dist.devices<[0:4]>>
  %4 = dist.gather %x root 0 dim 0 groups [[0, 1], [2, 3]] : !t -> tensor<16x16xf32, #dist.devices<[0, 2]>>
  %5 = dist.reduce %x sum root 0 groups [[0, 1], [2, 3]] : !t -> tensor<8x16xf32, #dist.devices<[0, 2]>>
  return %0, %1, %2, %3, %4, %5 : !t, tensor<8x32xf32, #dist.devices<[0:4]>>, tensor<4x16xf32, #dist.devices<[0:4]>>, tensor<4x32xf32, #dist.devices<[0:4]>>, tensor<16x16xf32, #dist.devices<[0, 2]>>, tensor<8x16xf32, #dist.devices<[0, 2]>>
}
