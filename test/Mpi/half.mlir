// f16 and bf16 reductions under --mpi: Open MPI has no 16-bit float types,
// so the runtime reduces them with user-defined MPI ops (widen to f32,
// combine, round to nearest even). Sum, prod, min and max of all_reduce,
// reduce_scatter and reduce on 4 ranks: within an f16 tolerance of the
// sequential executor, and bitwise equal to it with --mpi-deterministic.
//
// REQUIRES: mpi
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mpirun 4 dist-run %s --mpi --reference %s --rtol 1e-2 --atol 1e-2 | FileCheck %s
// CHECK-COUNT-10: ok
// CHECK: overall: {{.*}}: PASS
// RUN: dist-run %s --print-values > %t/sequential
// RUN: %mpirun 4 dist-run %s --mpi --mpi-deterministic --print-values > %t/deterministic
// RUN: cmp %t/sequential %t/deterministic
// Min and max round nothing: exact with MPI's own order too.
// RUN: %mpirun 4 dist-run %s --mpi --print-values | grep "^m" > %t/minmax.mpi
// RUN: grep "^m" %t/sequential > %t/minmax.seq
// RUN: cmp %t/minmax.seq %t/minmax.mpi

dist.mesh @x shape = [4] axes = ["x"]
func.func @main(%h: tensor<1x8xf16, #dist.devices<[0:4]>> {dist.name = "h", dist.sharding = #dist.sharding<@x, [["x"], []]>},
                %b: tensor<1x8xbf16, #dist.devices<[0:4]>> {dist.name = "b", dist.sharding = #dist.sharding<@x, [["x"], []]>})
    -> (tensor<1x8xf16, #dist.devices<[0:4]>> {dist.name = "sum_h"},
        tensor<1x8xbf16, #dist.devices<[0:4]>> {dist.name = "sum_b"},
        tensor<1x8xf16, #dist.devices<[0:4]>> {dist.name = "prod_h"},
        tensor<1x8xbf16, #dist.devices<[0:4]>> {dist.name = "prod_b"},
        tensor<1x8xf16, #dist.devices<[0:4]>> {dist.name = "min_h"},
        tensor<1x8xbf16, #dist.devices<[0:4]>> {dist.name = "max_b"},
        tensor<1x2xf16, #dist.devices<[0:4]>> {dist.name = "scattered_h", dist.sharding = #dist.sharding<@x, [[], ["x"]]>},
        tensor<1x2xbf16, #dist.devices<[0:4]>> {dist.name = "scattered_b", dist.sharding = #dist.sharding<@x, [[], ["x"]]>},
        tensor<1x8xf16, #dist.devices<[0]>> {dist.name = "reduced_h"},
        tensor<1x8xbf16, #dist.devices<[0]>> {dist.name = "reduced_b"}) {
  %0 = dist.all_reduce %h sum groups [[0, 1, 2, 3]] : tensor<1x8xf16, #dist.devices<[0:4]>> -> tensor<1x8xf16, #dist.devices<[0:4]>>
  %1 = dist.all_reduce %b sum groups [[0, 1, 2, 3]] : tensor<1x8xbf16, #dist.devices<[0:4]>> -> tensor<1x8xbf16, #dist.devices<[0:4]>>
  %2 = dist.all_reduce %h prod groups [[0, 1, 2, 3]] : tensor<1x8xf16, #dist.devices<[0:4]>> -> tensor<1x8xf16, #dist.devices<[0:4]>>
  %3 = dist.all_reduce %b prod groups [[0, 1, 2, 3]] : tensor<1x8xbf16, #dist.devices<[0:4]>> -> tensor<1x8xbf16, #dist.devices<[0:4]>>
  %4 = dist.all_reduce %h min groups [[0, 1, 2, 3]] : tensor<1x8xf16, #dist.devices<[0:4]>> -> tensor<1x8xf16, #dist.devices<[0:4]>>
  %5 = dist.all_reduce %b max groups [[0, 1, 2, 3]] : tensor<1x8xbf16, #dist.devices<[0:4]>> -> tensor<1x8xbf16, #dist.devices<[0:4]>>
  %6 = dist.reduce_scatter %h sum dim 1 groups [[0, 1, 2, 3]] : tensor<1x8xf16, #dist.devices<[0:4]>> -> tensor<1x2xf16, #dist.devices<[0:4]>>
  %7 = dist.reduce_scatter %b sum dim 1 groups [[0, 1, 2, 3]] : tensor<1x8xbf16, #dist.devices<[0:4]>> -> tensor<1x2xbf16, #dist.devices<[0:4]>>
  %8 = dist.reduce %h sum root 0 groups [[0, 1, 2, 3]] : tensor<1x8xf16, #dist.devices<[0:4]>> -> tensor<1x8xf16, #dist.devices<[0]>>
  %9 = dist.reduce %b sum root 0 groups [[0, 1, 2, 3]] : tensor<1x8xbf16, #dist.devices<[0:4]>> -> tensor<1x8xbf16, #dist.devices<[0]>>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<1x8xf16, #dist.devices<[0:4]>>, tensor<1x8xbf16, #dist.devices<[0:4]>>, tensor<1x8xf16, #dist.devices<[0:4]>>, tensor<1x8xbf16, #dist.devices<[0:4]>>, tensor<1x8xf16, #dist.devices<[0:4]>>, tensor<1x8xbf16, #dist.devices<[0:4]>>, tensor<1x2xf16, #dist.devices<[0:4]>>, tensor<1x2xbf16, #dist.devices<[0:4]>>, tensor<1x8xf16, #dist.devices<[0]>>, tensor<1x8xbf16, #dist.devices<[0]>>
}
