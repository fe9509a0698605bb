func.func @collectives(%x: tensor<8x16xf32, #dist.devices<[0:4]>>, %r: tensor<8x16xf32, #dist.devices<[0, 2]>>) {
  %0 = dist.send %x to [4:8] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[4:8]>>
  %1 = dist.all_reduce %x sum groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[0:4]>>
  %2 = dist.all_gather %x dim 1 groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[0:4]>>
  %3 = dist.reduce_scatter %x sum dim 0 groups [[0:4]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[0:4]>>
  %4 = dist.all_to_all %x split_dim 0 concat_dim 1 groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[0:4]>>
  %5 = dist.broadcast %r root 0 groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0, 2]>> -> tensor<?x?xf32, #dist.devices<[0:4]>>
  %6 = dist.scatter %r root 0 dim 0 groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0, 2]>> -> tensor<?x?xf32, #dist.devices<[0:4]>>
  %7 = dist.gather %x root 0 dim 0 groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[0, 2]>>
  %8 = dist.reduce %x sum root 0 groups [[0, 1], [2, 3]] : tensor<8x16xf32, #dist.devices<[0:4]>> -> tensor<?x?xf32, #dist.devices<[0, 2]>>
  return
}
