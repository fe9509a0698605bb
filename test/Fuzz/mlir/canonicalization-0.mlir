!t = tensor<8x16xf32, #dist.devices<[0:4]>>

func.func @singleton_groups(%x: !t) -> (!t, !t, !t, !t, !t, !t, !t, !t) {
  %0 = dist.all_reduce %x sum groups [[0], [1], [2], [3]] : !t -> !t
  %1 = dist.all_gather %x dim 1 groups [[0], [1], [2], [3]] : !t -> !t
  %2 = dist.reduce_scatter %x avg dim 0 groups [[0], [1], [2], [3]] : !t -> !t
  %3 = dist.all_to_all %x split_dim 0 concat_dim 1 groups [[0], [1], [2], [3]] : !t -> !t
  %4 = dist.broadcast %x root 0 groups [[0], [1], [2], [3]] : !t -> !t
  %5 = dist.scatter %x root 0 dim 0 groups [[0], [1], [2], [3]] : !t -> !t
  %6 = dist.gather %x root 0 dim 0 groups [[0], [1], [2], [3]] : !t -> !t
  %7 = dist.reduce %x max root 0 groups [[0], [1], [2], [3]] : !t -> !t
  return %0, %1, %2, %3, %4, %5, %6, %7 : !t, !t, !t, !t, !t, !t, !t, !t
}
