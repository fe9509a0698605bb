// Every collective over explicit groups, observed in the global view: inputs
// and results are sharded so that each device's local value is one visible
// block of the printed global tensor.
// RUN: rm -rf %t && dist-run %S/Inputs/values.mlir --output-dir %t > /dev/null
// RUN: dist-run %s --entry all_reduce --input rows=%t/rows.npy | FileCheck %s --check-prefix=ALLREDUCE
// RUN: dist-run %s --entry all_gather --input rows=%t/rows.npy | FileCheck %s --check-prefix=ALLGATHER
// RUN: dist-run %s --entry reduce_scatter --input rows=%t/rows.npy | FileCheck %s --check-prefix=REDUCESCATTER
// RUN: dist-run %s --entry all_to_all --input rows=%t/rows.npy | FileCheck %s --check-prefix=ALLTOALL
// RUN: dist-run %s --entry broadcast --input pair=%t/pair.npy | FileCheck %s --check-prefix=BROADCAST
// RUN: dist-run %s --entry scatter --input pair=%t/pair.npy | FileCheck %s --check-prefix=SCATTER
// RUN: dist-run %s --entry gather --input rows=%t/rows.npy | FileCheck %s --check-prefix=GATHER
// RUN: dist-run %s --entry reduce --input rows=%t/rows.npy | FileCheck %s --check-prefix=REDUCE
// RUN: dist-run %s --entry send --input pair=%t/pair.npy | FileCheck %s --check-prefix=SEND
// RUN: dist-run %s --entry partial --input rows=%t/rows.npy | FileCheck %s --check-prefix=PARTIAL
// RUN: dist-run %s --entry placed_constant | FileCheck %s --check-prefix=CONSTANT

// Device d = (a, b) with d = 2a + b; "x" is the flat axis of the same devices.
dist.mesh @g shape = [2, 2] axes = ["a", "b"]
dist.mesh @x shape = [4] axes = ["x"]

// rows = [[1, 2], [3, 4], [5, 6], [7, 8]]: device d holds row d.
// ALLREDUCE: sum: f32 [4, 2] = {{\[\[}}4, 6], [4, 6], [12, 14], [12, 14]]
// ALLREDUCE: prod: f32 [4, 2] = {{\[\[}}3, 8], [3, 8], [35, 48], [35, 48]]
// ALLREDUCE: min: f32 [4, 2] = {{\[\[}}1, 2], [1, 2], [5, 6], [5, 6]]
// ALLREDUCE: max: f32 [4, 2] = {{\[\[}}3, 4], [3, 4], [7, 8], [7, 8]]
// ALLREDUCE: avg: f32 [4, 2] = {{\[\[}}2, 3], [2, 3], [6, 7], [6, 7]]
// ALLREDUCE: strided: f32 [4, 2] = {{\[\[}}6, 8], [10, 12], [6, 8], [10, 12]]
func.func @all_reduce(%rows: tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "rows", dist.sharding = #dist.sharding<@x, [["x"], []]>})
    -> (tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "sum", dist.sharding = #dist.sharding<@x, [["x"], []]>},
        tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "prod", dist.sharding = #dist.sharding<@x, [["x"], []]>},
        tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "min", dist.sharding = #dist.sharding<@x, [["x"], []]>},
        tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "max", dist.sharding = #dist.sharding<@x, [["x"], []]>},
        tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "avg", dist.sharding = #dist.sharding<@x, [["x"], []]>},
        tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "strided", dist.sharding = #dist.sharding<@x, [["x"], []]>}) {
  %sum = dist.all_reduce %rows sum groups [[0, 1], [2, 3]] : tensor<1x2xf32, #dist.devices<[0:4]>> -> tensor<1x2xf32, #dist.devices<[0:4]>>
  %prod = dist.all_reduce %rows prod groups [[0, 1], [2, 3]] : tensor<1x2xf32, #dist.devices<[0:4]>> -> tensor<1x2xf32, #dist.devices<[0:4]>>
  %min = dist.all_reduce %rows min groups [[0, 1], [2, 3]] : tensor<1x2xf32, #dist.devices<[0:4]>> -> tensor<1x2xf32, #dist.devices<[0:4]>>
  %max = dist.all_reduce %rows max groups [[0, 1], [2, 3]] : tensor<1x2xf32, #dist.devices<[0:4]>> -> tensor<1x2xf32, #dist.devices<[0:4]>>
  %avg = dist.all_reduce %rows avg groups [[0, 1], [2, 3]] : tensor<1x2xf32, #dist.devices<[0:4]>> -> tensor<1x2xf32, #dist.devices<[0:4]>>
  %strided = dist.all_reduce %rows sum groups [[0, 2], [1, 3]] : tensor<1x2xf32, #dist.devices<[0:4]>> -> tensor<1x2xf32, #dist.devices<[0:4]>>
  return %sum, %prod, %min, %max, %avg, %strided : tensor<1x2xf32, #dist.devices<[0:4]>>, tensor<1x2xf32, #dist.devices<[0:4]>>, tensor<1x2xf32, #dist.devices<[0:4]>>, tensor<1x2xf32, #dist.devices<[0:4]>>, tensor<1x2xf32, #dist.devices<[0:4]>>, tensor<1x2xf32, #dist.devices<[0:4]>>
}

// Group members concatenate in group order, so [[1, 0], ...] swaps them.
// ALLGATHER: gathered: f32 [4, 4] = {{\[\[}}1, 2, 3, 4], [1, 2, 3, 4], [5, 6, 7, 8], [5, 6, 7, 8]]
// ALLGATHER: reversed: f32 [4, 4] = {{\[\[}}3, 4, 1, 2], [3, 4, 1, 2], [5, 6, 7, 8], [5, 6, 7, 8]]
func.func @all_gather(%rows: tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "rows", dist.sharding = #dist.sharding<@x, [["x"], []]>})
    -> (tensor<1x4xf32, #dist.devices<[0:4]>> {dist.name = "gathered", dist.sharding = #dist.sharding<@x, [["x"], []]>},
        tensor<1x4xf32, #dist.devices<[0:4]>> {dist.name = "reversed", dist.sharding = #dist.sharding<@x, [["x"], []]>}) {
  %0 = dist.all_gather %rows dim 1 groups [[0, 1], [2, 3]] : tensor<1x2xf32, #dist.devices<[0:4]>> -> tensor<1x4xf32, #dist.devices<[0:4]>>
  %1 = dist.all_gather %rows dim 1 groups [[1, 0], [2, 3]] : tensor<1x2xf32, #dist.devices<[0:4]>> -> tensor<1x4xf32, #dist.devices<[0:4]>>
  return %0, %1 : tensor<1x4xf32, #dist.devices<[0:4]>>, tensor<1x4xf32, #dist.devices<[0:4]>>
}

// Group sums [4, 6] and [12, 14]; member i keeps block i.
// REDUCESCATTER: scattered: f32 [4, 1] = {{\[\[}}4], [6], [12], [14]]
func.func @reduce_scatter(%rows: tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "rows", dist.sharding = #dist.sharding<@x, [["x"], []]>})
    -> (tensor<1x1xf32, #dist.devices<[0:4]>> {dist.name = "scattered", dist.sharding = #dist.sharding<@x, [["x"], []]>}) {
  %0 = dist.reduce_scatter %rows sum dim 1 groups [[0, 1], [2, 3]] : tensor<1x2xf32, #dist.devices<[0:4]>> -> tensor<1x1xf32, #dist.devices<[0:4]>>
  return %0 : tensor<1x1xf32, #dist.devices<[0:4]>>
}

// Member i sends its block j to member j: device 0 gets [1, 3], device 1 [2, 4].
// ALLTOALL: exchanged: f32 [8, 1] = {{\[\[}}1], [3], [2], [4], [5], [7], [6], [8]]
func.func @all_to_all(%rows: tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "rows", dist.sharding = #dist.sharding<@x, [["x"], []]>})
    -> (tensor<2x1xf32, #dist.devices<[0:4]>> {dist.name = "exchanged", dist.sharding = #dist.sharding<@x, [["x"], []]>}) {
  %0 = dist.all_to_all %rows split_dim 1 concat_dim 0 groups [[0, 1], [2, 3]] : tensor<1x2xf32, #dist.devices<[0:4]>> -> tensor<2x1xf32, #dist.devices<[0:4]>>
  return %0 : tensor<2x1xf32, #dist.devices<[0:4]>>
}

// pair = [[1, 2], [3, 4]] lives on the roots 1 and 3 (b = 1), one row each.
// The result is replicated along b: the printer checks the replicas agree.
// BROADCAST: broadcast: f32 [2, 2] = {{\[\[}}1, 2], [3, 4]]
func.func @broadcast(%pair: tensor<1x2xf32, #dist.devices<[1, 3]>> {dist.name = "pair", dist.sharding = #dist.sharding<@g, [["a"], []]>})
    -> (tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "broadcast", dist.sharding = #dist.sharding<@g, [["a"], []]>}) {
  %0 = dist.broadcast %pair root 1 groups [[0, 1], [2, 3]] : tensor<1x2xf32, #dist.devices<[1, 3]>> -> tensor<1x2xf32, #dist.devices<[0:4]>>
  return %0 : tensor<1x2xf32, #dist.devices<[0:4]>>
}

// Roots 0 and 2 hold [1, 2] and [3, 4]; member i gets element i.
// SCATTER: scattered: f32 [4, 1] = {{\[\[}}1], [2], [3], [4]]
func.func @scatter(%pair: tensor<1x2xf32, #dist.devices<[0, 2]>> {dist.name = "pair", dist.sharding = #dist.sharding<@g, [["a"], []]>})
    -> (tensor<1x1xf32, #dist.devices<[0:4]>> {dist.name = "scattered", dist.sharding = #dist.sharding<@x, [["x"], []]>}) {
  %0 = dist.scatter %pair root 0 dim 1 groups [[0, 1], [2, 3]] : tensor<1x2xf32, #dist.devices<[0, 2]>> -> tensor<1x1xf32, #dist.devices<[0:4]>>
  return %0 : tensor<1x1xf32, #dist.devices<[0:4]>>
}

// GATHER: gathered: f32 [4, 2] = {{\[\[}}1, 2], [3, 4], [5, 6], [7, 8]]
func.func @gather(%rows: tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "rows", dist.sharding = #dist.sharding<@x, [["x"], []]>})
    -> (tensor<2x2xf32, #dist.devices<[1, 3]>> {dist.name = "gathered", dist.sharding = #dist.sharding<@g, [["a"], []]>}) {
  %0 = dist.gather %rows root 1 dim 0 groups [[0, 1], [2, 3]] : tensor<1x2xf32, #dist.devices<[0:4]>> -> tensor<2x2xf32, #dist.devices<[1, 3]>>
  return %0 : tensor<2x2xf32, #dist.devices<[1, 3]>>
}

// REDUCE: reduced: f32 [2, 2] = {{\[\[}}4, 6], [12, 14]]
func.func @reduce(%rows: tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "rows", dist.sharding = #dist.sharding<@x, [["x"], []]>})
    -> (tensor<1x2xf32, #dist.devices<[0, 2]>> {dist.name = "reduced", dist.sharding = #dist.sharding<@g, [["a"], []]>}) {
  %0 = dist.reduce %rows sum root 0 groups [[0, 1], [2, 3]] : tensor<1x2xf32, #dist.devices<[0:4]>> -> tensor<1x2xf32, #dist.devices<[0, 2]>>
  return %0 : tensor<1x2xf32, #dist.devices<[0, 2]>>
}

// Position by position between sorted device sets: 0 -> 2 and 1 -> 3, then
// 2 -> 1 and 3 -> 2, so device 1 ends with [1, 2] and device 2 with [3, 4].
// @r lists device 2 first, hence the swapped rows.
dist.mesh @r shape = [2] axes = ["r"] devices = [2, 1]
// SEND: moved: f32 [2, 2] = {{\[\[}}1, 2], [3, 4]]
// SEND: swapped: f32 [2, 2] = {{\[\[}}3, 4], [1, 2]]
func.func @send(%pair: tensor<1x2xf32, #dist.devices<[0, 1]>> {dist.name = "pair", dist.sharding = #dist.sharding<@g, [["b"], []]>})
    -> (tensor<1x2xf32, #dist.devices<[2, 3]>> {dist.name = "moved", dist.sharding = #dist.sharding<@g, [["b"], []]>},
        tensor<1x2xf32, #dist.devices<[1, 2]>> {dist.name = "swapped", dist.sharding = #dist.sharding<@r, [["r"], []]>}) {
  %0 = dist.send %pair to [2:4] : tensor<1x2xf32, #dist.devices<[0, 1]>> -> tensor<1x2xf32, #dist.devices<[2, 3]>>
  %1 = dist.send %0 to [1, 2] : tensor<1x2xf32, #dist.devices<[2, 3]>> -> tensor<1x2xf32, #dist.devices<[1, 2]>>
  return %0, %1 : tensor<1x2xf32, #dist.devices<[2, 3]>>, tensor<1x2xf32, #dist.devices<[1, 2]>>
}

// A result left as a partial sum is summed when reassembled; a partial
// argument is laid out as the value on one device and zeros elsewhere.
// PARTIAL: total: f32 [1, 2] = {{\[\[}}16, 20]]
// PARTIAL: roundtrip: f32 [1, 2] = {{\[\[}}16, 20]]
func.func @partial(%rows: tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "rows", dist.sharding = #dist.sharding<@x, [["x"], []]>})
    -> (tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "total", dist.sharding = #dist.sharding<@x, [[], []], partial = ["x"]>},
        tensor<1x2xf32, #dist.devices<[0:4]>> {dist.name = "roundtrip"}) {
  %0 = dist.all_reduce %rows sum groups [[0, 1, 2, 3]] : tensor<1x2xf32, #dist.devices<[0:4]>> -> tensor<1x2xf32, #dist.devices<[0:4]>>
  return %rows, %0 : tensor<1x2xf32, #dist.devices<[0:4]>>, tensor<1x2xf32, #dist.devices<[0:4]>>
}

// A constant placed on a device set is replicated on each of its devices.
// CONSTANT: summed: f32 [2] = [2, 4]
func.func @placed_constant() -> (tensor<2xf32, #dist.devices<[0:2]>> {dist.name = "summed"}) {
  %c = dist.constant dense<[1.0, 2.0]> : tensor<2xf32> on [0:2]
  %0 = dist.all_reduce %c sum groups [[0, 1]] : tensor<2xf32, #dist.devices<[0:2]>> -> tensor<2xf32, #dist.devices<[0:2]>>
  return %0 : tensor<2xf32, #dist.devices<[0:2]>>
}
