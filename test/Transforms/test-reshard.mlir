// RUN: dist-opt %s --dist-test-reshard | FileCheck %s

// Reshard plans (planReshard) between two layouts on a 2 x 4 mesh, printed by
// the test-only pass; with test.shape (f32), the bytes each device sends
// (estimateReshardBytes: ring all_reduce 2(n-1)/n, reduce_scatter, slice and
// all_to_all (n-1)/n of the local block, all_gather (n-1) local blocks).

dist.mesh @m shape = [2, 4] axes = ["x", "y"]


// CHECK-LABEL: func.func private @same()
// CHECK-SAME: test.bytes = 0.000000e+00 : f64
// CHECK-SAME: test.plan = []
func.func private @same() attributes {test.from = #dist.sharding<@m, [["x"], []]>, test.to = #dist.sharding<@m, [["x"], []]>, test.shape = array<i64: 8, 8>}

// CHECK-LABEL: func.func private @all_reduce()
// CHECK-SAME: test.bytes = 4.480000e+02 : f64
// CHECK-SAME: test.plan = ["all_reduce over [x, y]"]
func.func private @all_reduce() attributes {test.from = #dist.sharding<@m, [[], []], partial = ["x", "y"]>, test.to = #dist.sharding<@m, [[], []]>, test.shape = array<i64: 8, 8>}

// CHECK-LABEL: func.func private @reduce_scatter()
// CHECK-SAME: test.bytes = 9.600000e+01 : f64
// CHECK-SAME: test.plan = ["reduce_scatter dim 1 over [y]"]
func.func private @reduce_scatter() attributes {test.from = #dist.sharding<@m, [[], ["x"]], partial = ["y"]>, test.to = #dist.sharding<@m, [[], ["x", "y"]]>, test.shape = array<i64: 8, 8>}

// CHECK-LABEL: func.func private @scatter_and_reduce()
// CHECK-SAME: test.plan = ["all_reduce over [y]", "slice dim 0 over [x, y]"]
func.func private @scatter_and_reduce() attributes {test.from = #dist.sharding<@m, [[], []], partial = ["y"]>, test.to = #dist.sharding<@m, [["x", "y"], []]>}

// CHECK-LABEL: func.func private @all_to_all()
// CHECK-SAME: test.bytes = 4.800000e+01 : f64
// CHECK-SAME: test.plan = ["all_to_all dim 1 from 0 over [y]"]
func.func private @all_to_all() attributes {test.from = #dist.sharding<@m, [["y"], []]>, test.to = #dist.sharding<@m, [[], ["y"]]>, test.shape = array<i64: 8, 8>}

// CHECK-LABEL: func.func private @all_gather()
// CHECK-SAME: test.bytes = 2.240000e+02 : f64
// CHECK-SAME: test.plan = ["all_gather dim 0 over [x, y]"]
func.func private @all_gather() attributes {test.from = #dist.sharding<@m, [["x", "y"], []]>, test.to = #dist.sharding<@m, [[], []]>, test.shape = array<i64: 8, 8>}

// CHECK-LABEL: func.func private @gather_minor()
// CHECK-SAME: test.plan = ["all_gather dim 0 over [y]"]
func.func private @gather_minor() attributes {test.from = #dist.sharding<@m, [["x", "y"], []]>, test.to = #dist.sharding<@m, [["x"], []]>}

// CHECK-LABEL: func.func private @reorder()
// CHECK-SAME: test.plan = ["all_gather dim 0 over [x, y]", "slice dim 0 over [y, x]"]
func.func private @reorder() attributes {test.from = #dist.sharding<@m, [["x", "y"]]>, test.to = #dist.sharding<@m, [["y", "x"]]>}

// CHECK-LABEL: func.func private @slice()
// CHECK-SAME: test.bytes = 2.240000e+02 : f64
// CHECK-SAME: test.plan = ["slice dim 0 over [y]", "slice dim 1 over [x]"]
func.func private @slice() attributes {test.from = #dist.sharding<@m, [[], []]>, test.to = #dist.sharding<@m, [["y"], ["x"]]>, test.shape = array<i64: 8, 8>}

// CHECK-LABEL: func.func private @make_partial()
// CHECK-SAME: test.plan = ["make_partial over [y]"]
func.func private @make_partial() attributes {test.from = #dist.sharding<@m, [[]]>, test.to = #dist.sharding<@m, [[]], partial = ["y"]>}
