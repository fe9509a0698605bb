// The block collectives that run as their own MPI calls on 4 ranks (one
// device per rank): scatter (MPI_Scatter from the roots),
// all_to_all (MPI_Alltoall), gather (MPI_Gather), reduce_scatter along a
// leading and an inner dimension (MPI_Reduce_scatter_block). Bitwise equal
// to the sequential executor (data movement is exact; --mpi-deterministic
// for the reduction), and within the default tolerance with MPI's own sum.
//
// REQUIRES: mpi
// RUN: rm -rf %t && mkdir -p %t
// RUN: for entry in scatter all_to_all gather reduce_scatter; do \
// RUN:   dist-run %s --entry $entry --print-values --seed 7 > %t/$entry.seq || exit 1; \
// RUN:   %mpirun 4 dist-run %s --mpi --entry $entry --print-values --seed 7 > %t/$entry.mpi || exit 1; \
// RUN:   %mpirun 4 dist-run %s --mpi --mpi-deterministic --entry $entry --print-values --seed 7 > %t/$entry.det || exit 1; \
// RUN:   cmp %t/$entry.seq %t/$entry.det || exit 1; \
// RUN:   %mpirun 4 dist-run %s --mpi --entry $entry --seed 7 --reference %s > %t/$entry.ref || exit 1; \
// RUN:   grep -q "^overall: .*: PASS" %t/$entry.ref || exit 1; \
// RUN: done
// RUN: cmp %t/scatter.seq %t/scatter.mpi
// RUN: cmp %t/all_to_all.seq %t/all_to_all.mpi
// RUN: cmp %t/gather.seq %t/gather.mpi

dist.mesh @x shape = [4] axes = ["x"]

func.func @scatter(%m: tensor<2x3xf32, #dist.devices<[1, 3]>> {dist.name = "m"})
    -> (tensor<1x3xf32, #dist.devices<[0:4]>> {dist.name = "rows", dist.sharding = #dist.sharding<@x, [["x"], []]>}) {
  %0 = dist.scatter %m root 1 dim 0 groups [[0, 1], [2, 3]] : tensor<2x3xf32, #dist.devices<[1, 3]>> -> tensor<1x3xf32, #dist.devices<[0:4]>>
  return %0 : tensor<1x3xf32, #dist.devices<[0:4]>>
}

func.func @all_to_all(%rows: tensor<2x4xf32, #dist.devices<[0:4]>> {dist.name = "rows", dist.sharding = #dist.sharding<@x, [["x"], []]>})
    -> (tensor<8x1xf32, #dist.devices<[0:4]>> {dist.name = "swapped", dist.sharding = #dist.sharding<@x, [["x"], []]>}) {
  %0 = dist.all_to_all %rows split_dim 1 concat_dim 0 groups [[0, 1, 2, 3]] : tensor<2x4xf32, #dist.devices<[0:4]>> -> tensor<8x1xf32, #dist.devices<[0:4]>>
  return %0 : tensor<8x1xf32, #dist.devices<[0:4]>>
}

func.func @gather(%cols: tensor<2x1xf32, #dist.devices<[0:4]>> {dist.name = "cols", dist.sharding = #dist.sharding<@x, [["x"], []]>})
    -> (tensor<2x4xf32, #dist.devices<[2]>> {dist.name = "gathered"}) {
  %0 = dist.gather %cols root 2 dim 1 groups [[0, 1, 2, 3]] : tensor<2x1xf32, #dist.devices<[0:4]>> -> tensor<2x4xf32, #dist.devices<[2]>>
  return %0 : tensor<2x4xf32, #dist.devices<[2]>>
}

func.func @reduce_scatter(%rows: tensor<4x6xf32, #dist.devices<[0:4]>> {dist.name = "rows", dist.sharding = #dist.sharding<@x, [["x"], []]>})
    -> (tensor<1x6xf32, #dist.devices<[0:4]>> {dist.name = "leading", dist.sharding = #dist.sharding<@x, [["x"], []]>},
        tensor<4x3xf32, #dist.devices<[0:4]>> {dist.name = "inner", dist.sharding = #dist.sharding<@x, [["x"], []]>}) {
  %0 = dist.reduce_scatter %rows sum dim 0 groups [[0, 1, 2, 3]] : tensor<4x6xf32, #dist.devices<[0:4]>> -> tensor<1x6xf32, #dist.devices<[0:4]>>
  %1 = dist.reduce_scatter %rows sum dim 1 groups [[0, 1], [2, 3]] : tensor<4x6xf32, #dist.devices<[0:4]>> -> tensor<4x3xf32, #dist.devices<[0:4]>>
  return %0, %1 : tensor<1x6xf32, #dist.devices<[0:4]>>, tensor<4x3xf32, #dist.devices<[0:4]>>
}
