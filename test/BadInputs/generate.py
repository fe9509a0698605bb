#!/usr/bin/env python3
"""Writes the bad-input corpus (issue 14): cases/ and cases.txt.

Every case is a command of one of the six tools on a malformed or extreme
input; run.py runs each and expects a non-zero exit, no signal, a bounded
time and exactly one line on stderr. The files are generated once and kept
in the repository so that they can be reviewed; run this script again after
editing it:

    /usr/bin/python3 test/BadInputs/generate.py

cases.txt: one case per line, `<name> <tool> <arguments>`; %S is the cases
directory and %T a fresh directory of the case.
"""

import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")

cases = []  # (name, command)
files = {}  # file name -> bytes


def add(name, command, **new_files):
    assert all(name != n for n, _ in cases), name
    cases.append((name, command))
    for file_name, content in new_files.items():
        put(file_name.replace("__", "."), content)


def put(file_name, content):
    if isinstance(content, str):
        content = content.encode()
    assert file_name not in files or files[file_name] == content, file_name
    files[file_name] = content


# --- Valid bases the cases mutate -------------------------------------------

MLP = """module {
  func.func @mlp(%arg0: tensor<16x16xf32> {dist.name = "layers.0.weight", dist.role = "parameter"}, %arg1: tensor<16x16xf32> {dist.name = "layers.1.weight", dist.role = "parameter"}, %arg2: tensor<8x16xf32> {dist.name = "input", dist.role = "data"}, %arg3: tensor<8x16xf32> {dist.name = "target", dist.role = "data"}) -> (tensor<f32> {dist.name = "loss", dist.role = "loss"}) {
    %0 = dist.matmul %arg2, %arg0 {dist.layer = 0 : i64} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %1 = dist.relu %0 {dist.layer = 0 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %2 = dist.matmul %1, %arg1 {dist.layer = 1 : i64} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %3 = dist.relu %2 {dist.layer = 1 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %4 = dist.mse_loss %3, %arg3 {dist.layer = 1 : i64} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<f32>
    return %4 : tensor<f32>
  }
}
"""
put("base-mlp.mlir", MLP)

# A placed program: two devices, each half of the batch.
PLACED = """dist.mesh @mesh shape = [2] axes = ["dp"]
func.func @main(%x: tensor<4x16xf32, #dist.devices<[0:2]>>, %w: tensor<16x16xf32, #dist.devices<[0:2]>>) -> tensor<4x16xf32, #dist.devices<[0:2]>> {
  %0 = dist.matmul %x, %w : (tensor<4x16xf32, #dist.devices<[0:2]>>, tensor<16x16xf32, #dist.devices<[0:2]>>) -> tensor<4x16xf32, #dist.devices<[0:2]>>
  return %0 : tensor<4x16xf32, #dist.devices<[0:2]>>
}
"""
put("base-placed.mlir", PLACED)

CLUSTER = """{"nodes": 1, "devices_per_node": 2,
 "device": {"vector_flops": 1e12, "memory_bytes": 1000000000,
            "memory_bandwidth": 1e11},
 "intra_node": {"bandwidth": 1e10, "latency_s": 1e-6},
 "inter_node": {"bandwidth": 1e9, "latency_s": 1e-5}}
"""
put("base-cluster.json", CLUSTER)


def fn(body, args="%x: tensor<4x8xf32>", results="", ret="return"):
    signature = "(%s)" % args
    if results:
        signature += " -> " + results
    return "func.func @f%s {\n  %s\n  %s\n}\n" % (signature, body, ret)


def mlir(name, text, extra=""):
    add("opt-" + name, "dist-opt %S/opt-" + name + ".mlir" + extra,
        **{"opt-" + name + "__mlir": text})


# --- dist-opt: device sets ----------------------------------------------------

for name, devices in [
        ("devices-negative", "[-1]"), ("devices-reversed-range", "[3:1]"),
        ("devices-zero-step", "[0:4:0]"), ("devices-negative-step", "[0:4:-1]"),
        ("devices-duplicate", "[1, 1]"), ("devices-unsorted", "[2, 1]"),
        ("devices-overlapping-runs", "[0:4, 2]"),
        ("devices-range-to-max", "[0:9223372036854775807]"),
        ("devices-id-past-int64", "[9223372036854775808]"),
        ("devices-id-2-64", "[18446744073709551616]"),
        ("devices-huge-range", "[0:4611686018427387904]"),
        ("devices-over-limit", "[0:1048577]"),
        ("devices-runs-over-limit", "[0:1048576, 2000000]"),
        ("devices-word", "[a]"), ("devices-open-end", "[0:]"),
        ("devices-open-start", "[:4]"), ("devices-empty-step", "[0::2]"),
        ("devices-four-parts", "[0:4:2:1]"), ("devices-float", "[1.5]"),
        ("devices-exponent", "[1e3]"), ("devices-no-brackets", "0:4"),
        ("devices-unclosed", "[0:4"), ("devices-nested", "[[0]]"),
        ("devices-string", "[\"0\"]"), ("devices-trailing-comma", "[0, ]"),
        ("devices-negative-range", "[-8:-4]"),
        ("devices-step-overflow", "[9223372036854775806:9223372036854775807:9223372036854775807, 5]"),
]:
    mlir(name, "func.func private @f(tensor<4xf32, #dist.devices<%s>>)\n" % devices)

# --- dist-opt: meshes ---------------------------------------------------------

for name, mesh in [
        ("mesh-zero", "shape = [0] axes = [\"dp\"]"),
        ("mesh-negative", "shape = [-2] axes = [\"dp\"]"),
        ("mesh-axes-count", "shape = [2] axes = [\"a\", \"b\"]"),
        ("mesh-duplicate-axes", "shape = [2, 2] axes = [\"a\", \"a\"]"),
        ("mesh-2-32", "shape = [4294967296] axes = [\"dp\"]"),
        ("mesh-product-wraps", "shape = [4294967296, 4294967296, 4294967296] axes = [\"a\", \"b\", \"c\"]"),
        ("mesh-over-limit", "shape = [1048577] axes = [\"dp\"]"),
        ("mesh-empty-axis", "shape = [2] axes = [\"\"]"),
        ("mesh-devices-count", "shape = [2] axes = [\"dp\"] devices = [0]"),
        ("mesh-devices-duplicate", "shape = [2] axes = [\"dp\"] devices = [0, 0]"),
        ("mesh-devices-negative", "shape = [2] axes = [\"dp\"] devices = [-1, 1]"),
        ("mesh-axis-integer", "shape = [2] axes = [1]"),
        ("mesh-no-axes", "shape = [2]"),
        ("mesh-shape-string", "shape = \"2\" axes = [\"dp\"]"),
        ("mesh-devices-past-int64", "shape = [1] axes = [\"dp\"] devices = [9223372036854775808]"),
]:
    mlir(name, "dist.mesh @m %s\n" % mesh)
mlir("mesh-twice", "dist.mesh @m shape = [2] axes = [\"a\"]\n"
     "dist.mesh @m shape = [2] axes = [\"b\"]\n")
mlir("mesh-in-function",
     "func.func @f() {\n  dist.mesh @m shape = [2] axes = [\"a\"]\n  return\n}\n")

# --- dist-opt: shardings ------------------------------------------------------

MESH = "dist.mesh @m shape = [2, 2] axes = [\"dp\", \"tp\"]\n"
for name, sharding, shape in [
        ("sharding-unknown-mesh", "#dist.sharding<@nope, [[\"dp\"], []]>", "8x8"),
        ("sharding-unknown-axis", "#dist.sharding<@m, [[\"pp\"], []]>", "8x8"),
        ("sharding-axis-twice", "#dist.sharding<@m, [[\"dp\"], [\"dp\"]]>", "8x8"),
        ("sharding-axis-twice-in-dim", "#dist.sharding<@m, [[\"dp\", \"dp\"], []]>", "8x8"),
        ("sharding-too-many-dims", "#dist.sharding<@m, [[], [], []]>", "8x8"),
        ("sharding-partial-unknown", "#dist.sharding<@m, [[], []], partial = [\"pp\"]>", "8x8"),
        ("sharding-partial-and-split", "#dist.sharding<@m, [[\"dp\"], []], partial = [\"dp\"]>", "8x8"),
        ("sharding-not-dividing", "#dist.sharding<@m, [[\"dp\"], []]>", "7x8"),
        ("sharding-mesh-is-function", "#dist.sharding<@f, [[\"dp\"], []]>", "8x8"),
        ("sharding-not-a-list", "#dist.sharding<@m, \"dp\">", "8x8"),
        ("sharding-integer-axis", "#dist.sharding<@m, [[0], []]>", "8x8"),
]:
    mlir(name, MESH + "func.func @f(%%x: tensor<%sxf32> {dist.sharding = %s}) {\n  return\n}\n"
         % (shape, sharding))

# --- dist-opt: types ----------------------------------------------------------

for name, type_ in [
        ("type-negative-dim", "tensor<-1xf32>"),
        ("type-dim-past-int64", "tensor<9223372036854775808xf32>"),
        ("type-bytes-wrap", "tensor<4611686018427387904xf32>"),
        ("type-elements-wrap", "tensor<4294967296x4294967296xf32>"),
        ("type-complex", "tensor<4xcomplex<f32>>"),
        ("type-unknown-element", "tensor<4xf33>"),
        ("type-unclosed", "tensor<4xf32"),
        ("type-devices-on-memref", "memref<4xf32, #dist.devices<[0]>>"),
]:
    mlir(name, fn("%%0 = dist.relu %%x : (%s) -> %s" % (type_, type_),
                  args="%%x: %s" % type_))

# --- dist-opt: ops ------------------------------------------------------------

X = "tensor<4x8xf32>"
op_cases = [
    ("dropout-ratio-above-one", "%0 = dist.dropout %x {ratio = 1.5 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("dropout-ratio-nan", "%0 = dist.dropout %x {ratio = 0x7FF8000000000000 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("matmul-k-mismatch", "%0 = dist.matmul %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("matmul-rank0", "%c = dist.constant dense<1.0> : tensor<f32>\n  %0 = dist.matmul %c, %c : (tensor<f32>, tensor<f32>) -> tensor<f32>"),
    ("matmul-wrong-result", "%0 = dist.matmul %x, %x {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>"),
    ("add-broadcast", "%c = dist.constant dense<1.0> : tensor<3xf32>\n  %0 = dist.add %x, %c : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<4x8xf32>"),
    ("add-element-types", "%c = dist.constant dense<1> : tensor<4x8xi64>\n  %0 = dist.add %x, %c : (tensor<4x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>"),
    ("transpose-duplicate", "%0 = dist.transpose %x {permutation = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x4xf32>"),
    ("transpose-out-of-range", "%0 = dist.transpose %x {permutation = array<i64: 0, 2>} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("transpose-short", "%0 = dist.transpose %x {permutation = array<i64: 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("transpose-huge", "%0 = dist.transpose %x {permutation = array<i64: 9223372036854775807, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>"),
    ("reshape-count", "%0 = dist.reshape %x {shape = array<i64: 5, 7>} : (tensor<4x8xf32>) -> tensor<5x7xf32>"),
    ("reshape-two-inferred", "%0 = dist.reshape %x {shape = array<i64: -1, -1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("reshape-minus-two", "%0 = dist.reshape %x {shape = array<i64: -2, -16>} : (tensor<4x8xf32>) -> tensor<2x16xf32>"),
    ("reshape-zero", "%0 = dist.reshape %x {shape = array<i64: 0, -1>} : (tensor<4x8xf32>) -> tensor<0x32xf32>"),
    ("reshape-wraps", "%0 = dist.reshape %x {shape = array<i64: 4611686018427387904, 4, -1>} : (tensor<4x8xf32>) -> tensor<4611686018427387904x4x1xf32>"),
    ("concat-axis", "%0 = dist.concat %x, %x {axis = 2} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>"),
    ("concat-mismatch", "%c = dist.constant dense<1.0> : tensor<4x7xf32>\n  %0 = dist.concat %x, %c {axis = 0} : (tensor<4x8xf32>, tensor<4x7xf32>) -> tensor<8x8xf32>"),
    ("concat-wraps", "%0 = dist.concat %y, %y {axis = 0} : (tensor<4611686018427387904xi1>, tensor<4611686018427387904xi1>) -> tensor<9223372036854775807xi1>"),
    ("concat-negative-axis", "%0 = dist.concat %x, %x {axis = -3} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>"),
    ("slice-zero-stride", "%0 = dist.slice %x {starts = array<i64: 0, 0>, limits = array<i64: 4, 8>, strides = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("slice-max-stride", "%0 = dist.slice %x {starts = array<i64: 1, 0>, limits = array<i64: 4, 8>, strides = array<i64: 9223372036854775807, 1>} : (tensor<4x8xf32>) -> tensor<2x8xf32>"),
    ("slice-min-stride", "%0 = dist.slice %x {starts = array<i64: 3, 0>, limits = array<i64: -1, 8>, strides = array<i64: -9223372036854775808, 1>} : (tensor<4x8xf32>) -> tensor<2x8xf32>"),
    ("slice-rank", "%0 = dist.slice %x {starts = array<i64: 0>, limits = array<i64: 4>, strides = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("slice-start-beyond", "%0 = dist.slice %x {starts = array<i64: 9, 0>, limits = array<i64: 10, 8>, strides = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<1x8xf32>"),
    ("split-sum", "%0:2 = dist.split %x {axis = 1, sizes = array<i64: 3, 3>} : (tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)"),
    ("split-negative", "%0:2 = dist.split %x {axis = 1, sizes = array<i64: 10, -2>} : (tensor<4x8xf32>) -> (tensor<4x10xf32>, tensor<4x-2xf32>)"),
    ("split-wraps", "%0:2 = dist.split %x {axis = 1, sizes = array<i64: 9223372036854775807, 9223372036854775807>} : (tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x7xf32>)"),
    ("split-result-count", "%0:3 = dist.split %x {axis = 1, sizes = array<i64: 4, 4>} : (tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)"),
    ("pad-max", "%0 = dist.pad %x {low = array<i64: 9223372036854775807, 0>, high = array<i64: 9223372036854775807, 0>, interior = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<2x8xf32>"),
    ("pad-min", "%0 = dist.pad %x {low = array<i64: -9223372036854775808, 0>, high = array<i64: 0, 0>, interior = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("pad-negative-interior", "%0 = dist.pad %x {low = array<i64: 0, 0>, high = array<i64: 0, 0>, interior = array<i64: -1, 0>} : (tensor<4x8xf32>) -> tensor<1x8xf32>"),
    ("pad-interior-wraps", "%0 = dist.pad %x {low = array<i64: 0, 0>, high = array<i64: 0, 0>, interior = array<i64: 4611686018427387904, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("pad-rank", "%0 = dist.pad %x {low = array<i64: 0>, high = array<i64: 0>, interior = array<i64: 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("take-axis", "%i = dist.constant dense<0> : tensor<2xi64>\n  %0 = dist.take %x, %i {axis = 5} : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<2x8xf32>"),
    ("take-float-indices", "%0 = dist.take %x, %x {axis = 0} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8x8xf32>"),
    ("expand-bad", "%0 = dist.expand %x {shape = array<i64: 3, 8>} : (tensor<4x8xf32>) -> tensor<3x8xf32>"),
    ("expand-negative", "%0 = dist.expand %x {shape = array<i64: -4, 8>} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("expand-wraps", "%0 = dist.expand %x {shape = array<i64: 4294967296, 4294967296, 4, 8>} : (tensor<4x8xf32>) -> tensor<4294967296x4294967296x4x8xf32>"),
    ("reduce-duplicate-axes", "%0 = dist.reduce_sum %x {axes = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<8xf32>"),
    ("reduce-axis-range", "%0 = dist.reduce_sum %x {axes = array<i64: 7>} : (tensor<4x8xf32>) -> tensor<4xf32>"),
    ("reduce-axis-min", "%0 = dist.reduce_max %x {axes = array<i64: -9223372036854775808>} : (tensor<4x8xf32>) -> tensor<4xf32>"),
    ("softmax-axis", "%0 = dist.softmax %x {axis = 2} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("softmax-axis-min", "%0 = dist.softmax %x {axis = -9223372036854775808} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("layer-norm-scale", "%s = dist.constant dense<1.0> : tensor<4xf32>\n  %0 = dist.layer_norm %x, %s, %s {axis = -1, epsilon = 1.0e-5 : f64} : (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4x8xf32>"),
    ("cast-wrong-result", "%0 = dist.cast %x {to = f16} : (tensor<4x8xf32>) -> tensor<4x8xbf16>"),
    ("constant-shape", "%0 = dist.constant dense<[1, 2]> : tensor<3xi64>"),
    ("constant-type", "%0 = dist.constant dense<1.5> : tensor<2xi64>"),
    ("constant-devices-negative", "%0 = dist.constant dense<1.0> : tensor<2xf32> on [-1:2]"),
    ("one-hot-depth-negative", "%i = dist.constant dense<0> : tensor<2xi64>\n  %b = dist.constant dense<0> : tensor<i64>\n  %0 = dist.one_hot %i, %b {depth = -3, element_type = f32} : (tensor<2xi64>, tensor<i64>) -> tensor<2x3xf32>"),
    ("conv-zero-stride", "%0 = dist.conv %img, %w {strides = array<i64: 0, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1} : (tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>"),
    ("conv-negative-pad", "%0 = dist.conv %img, %w {strides = array<i64: 1, 1>, pads = array<i64: -5, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1} : (tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x1x6xf32>"),
    ("conv-pad-wraps", "%0 = dist.conv %img, %w {strides = array<i64: 1, 1>, pads = array<i64: 9223372036854775807, 9223372036854775807, 0, 0>, dilations = array<i64: 1, 1>, group = 1} : (tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>"),
    ("conv-zero-group", "%0 = dist.conv %img, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 0} : (tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>"),
    ("conv-group-not-dividing", "%0 = dist.conv %img, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 3} : (tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>"),
    ("conv-zero-dilation", "%0 = dist.conv %img, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 0, 1>, group = 1} : (tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>"),
    ("conv-dilation-wraps", "%0 = dist.conv %img, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 4611686018427387904, 1>, group = 1} : (tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>"),
    ("conv-kernel-too-big", "%0 = dist.conv %img, %big {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1} : (tensor<1x2x8x8xf32>, tensor<4x2x9x9xf32>) -> tensor<1x4x0x0xf32>"),
    ("max-pool-zero-kernel", "%0 = dist.max_pool %img {kernel_shape = array<i64: 0, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x7xf32>"),
    ("max-pool-stride-wraps", "%0 = dist.max_pool %img {kernel_shape = array<i64: 2, 2>, strides = array<i64: -9223372036854775808, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x1x7xf32>"),
    ("avg-pool-pad-wraps", "%0 = dist.avg_pool %img {kernel_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 9223372036854775807, 0, 9223372036854775807, 0>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x7x7xf32>"),
    ("cross-entropy-labels", "%l = dist.constant dense<0> : tensor<5xi64>\n  %0 = dist.cross_entropy %x, %l : (tensor<4x8xf32>, tensor<5xi64>) -> tensor<f32>"),
    ("attention-shapes", "%q = dist.constant dense<1.0> : tensor<2x4x8x16xf32>\n  %k = dist.constant dense<1.0> : tensor<2x4x8x8xf32>\n  %0, %1 = dist.attention %q, %k, %q {scale = 0.25 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)"),
    ("take-grad-dim-size", "%i = dist.constant dense<0> : tensor<4xi64>\n  %0 = dist.take_grad %x, %i {dim_size = -1} : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<1x8xf32>"),
    ("sgd-shapes", "%g = dist.constant dense<1.0> : tensor<8x4xf32>\n  %0 = dist.sgd_update %x, %g {lr = 0.01 : f64} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x8xf32>"),
    ("unknown-op", "%0 = dist.nope %x : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("unknown-attribute", "%0 = dist.relu %x {a = #dist.nope<1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("generic-no-operands", "%0 = \"dist.relu\"() : () -> tensor<4x8xf32>"),
    ("generic-extra-results", "%0:2 = \"dist.relu\"(%x) : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)"),
    ("relu-result-shape", "%0 = dist.relu %x : (tensor<4x8xf32>) -> tensor<8x4xf32>"),
    ("layer-hint-negative", "%0 = dist.relu %x {dist.layer = -1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("undefined-value", "%0 = dist.relu %y : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
    ("redefined-value", "%0 = dist.relu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>\n  %0 = dist.relu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
]
ARGS = ("%x: tensor<4x8xf32>, %y: tensor<4611686018427387904xi1>, "
        "%img: tensor<1x2x8x8xf32>, %w: tensor<4x2x3x3xf32>, "
        "%big: tensor<4x2x9x9xf32>")
for name, body in op_cases:
    mlir("op-" + name, fn(body, args=ARGS))

# Collectives and sends on placed values.
P = "tensor<8x16xf32, #dist.devices<[0:4]>>"
for name, body in [
        ("all-reduce-groups-overlap", "%%0 = dist.all_reduce %%p sum groups [[0, 1], [1, 2, 3]] : %s -> %s" % (P, P)),
        ("all-reduce-groups-outside", "%%0 = dist.all_reduce %%p sum groups [[0, 1], [2, 9]] : %s -> %s" % (P, P)),
        ("all-reduce-groups-missing", "%%0 = dist.all_reduce %%p sum groups [[0, 1]] : %s -> %s" % (P, P)),
        ("all-reduce-groups-uneven", "%%0 = dist.all_reduce %%p sum groups [[0], [1, 2, 3]] : %s -> %s" % (P, P)),
        ("all-reduce-kind", "%%0 = dist.all_reduce %%p xor groups [[0:4]] : %s -> %s" % (P, P)),
        ("all-reduce-groups-huge", "%%0 = dist.all_reduce %%p sum groups [[0:1048576], [1048576:2097152]] : %s -> %s" % (P, P)),
        ("all-gather-shape", "%%0 = dist.all_gather %%p groups [[0:4]] axis 0 : %s -> %s" % (P, P)),
        ("send-count", "%%0 = dist.send %%p to [4:6] : %s -> tensor<8x16xf32, #dist.devices<[4:6]>>" % P),
        ("send-shape", "%%0 = dist.send %%p to [4:8] : %s -> tensor<8x8xf32, #dist.devices<[4:8]>>" % P),
        ("group-rank-outside", "%0 = dist.group_rank groups [[0, 5]] : tensor<i64, #dist.devices<[0:4]>>"),
        ("placement-mismatch", "%%0 = dist.relu %%p : (%s) -> tensor<8x16xf32, #dist.devices<[0:2]>>" % P),
]:
    mlir("op-" + name, fn(body, args="%%p: %s" % P))

# --- dist-opt: huge device sets and groups stay runs -------------------------
# Sets of 2^20 devices through every op and attribute that takes one, many
# times: stored as one run each, they cost what one id costs. Expanded id by
# id (before), 1500 distinct sets held 12 GB and each collective over a
# 2^20-device group took a second to verify. Each file ends with an
# error so that the case fails after the huge sets are parsed and verified.
M = 1048576
HUGE = "tensor<4xf32, #dist.devices<[0:%d]>>" % M
LATE_ERROR = ("func.func @late(%x: tensor<4xf32>) -> tensor<8xf32> {\n"
              "  return %x : tensor<4xf32>\n}\n")
mlir("runs-many-huge-sets",
     "".join("func.func private @f%d(tensor<4xf32, #dist.devices<[%d:%d]>>)\n"
             % (k, k, k + M) for k in range(1500)) + LATE_ERROR)
mlir("runs-many-strided-sets",
     "".join("func.func private @f%d(tensor<4xf32, #dist.devices<[%d:%d:%d]>>)\n"
             % (k, k, k + M * (k + 2), k + 2) for k in range(1500)) + LATE_ERROR)
HUGE_OPS = [
    "%%r%d = dist.all_reduce %%p sum groups [[0:%d]] : %s -> %s" % (0, M, HUGE, HUGE),
    "%%r%d = dist.all_reduce %%p sum groups [[0:%d:2], [1:%d:2]] : %s -> %s" % (1, M, M, HUGE, HUGE),
    "%%r%d = dist.all_reduce %%p max groups [[0:%d:4], [1:%d:4], [2:%d:4], [3:%d:4]] : %s -> %s" % (2, M, M, M, M, HUGE, HUGE),
    "%%r%d = dist.all_gather %%p dim 0 groups [[0:%d]] : %s -> tensor<%dxf32, #dist.devices<[0:%d]>>" % (3, M, HUGE, 4 * M, M),
    "%%r%d = dist.gather %%p root %d dim 0 groups [[0:%d]] : %s -> tensor<%dxf32, #dist.devices<[%d]>>" % (4, M - 1, M, HUGE, 4 * M, M - 1),
    "%%r%d = dist.send %%p to [%d:%d] : %s -> tensor<4xf32, #dist.devices<[%d:%d]>>" % (5, M, 2 * M, HUGE, M, 2 * M),
    "%%r%d = dist.group_rank groups [[0:%d:2], [1:%d:2]] : tensor<i64, #dist.devices<[0:%d]>>" % (6, M, M, M),
    "%%r%d = dist.relu %%p : (%s) -> %s" % (7, HUGE, HUGE),
]
for k, op in enumerate(HUGE_OPS):
    body = "\n  ".join(op.replace("%%r%d" % k, "%%r%d_%d" % (k, i)) for i in range(300))
    mlir("runs-huge-op-%d" % k, fn(body, args="%%p: %s" % HUGE) + LATE_ERROR)
# In a mesh of 2^20 devices (checked run by run against it), with shardings.
mlir("runs-huge-mesh-placements",
     "dist.mesh @m shape = [%d] axes = [\"dp\"]\n" % M
     + "".join("func.func private @f%d(tensor<%dxf32, #dist.devices<[%d:%d]>> {dist.sharding = #dist.sharding<@m, [[\"dp\"]]>}) attributes {dist.mesh = @m}\n"
               % (k, M, k, M) for k in range(1500))
     + "func.func private @outside(tensor<4xf32, #dist.devices<[1:%d]>>) attributes {dist.mesh = @m}\n" % (M + 1))
# dist-sim refuses a set beyond the cluster before listing its devices.
add("sim-runs-huge-set", "dist-sim %S/sim-runs-huge-set.mlir --cluster %S/base-cluster.json",
    **{"sim-runs-huge-set__mlir": fn("%%0 = dist.relu %%p : (%s) -> %s" % (HUGE, HUGE),
                               args="%%p: %s" % HUGE, results=HUGE,
                               ret="return %%0 : %s" % HUGE)})

# --- dist-opt: syntax ---------------------------------------------------------

mlir("syntax-truncated", MLP[:len(MLP) // 2])
mlir("syntax-unbalanced", MLP.replace("}\n}\n", "}\n"))
# Known gap: dist-opt echoes the source line of an error found before the
# parser loads any dialect (a file that starts with garbage); MlirOptMain's
# handler takes those. dist-sim and dist-run read the same file in one line.
put("opt-syntax-binary.mlir", bytes(range(256)) * 4)
put("opt-syntax-nul.mlir", MLP[:200].encode() + b"\0" + MLP[200:].encode())
add("opt-syntax-nul", "dist-opt %S/opt-syntax-nul.mlir")
mlir("syntax-deep-regions", "func.func @f() {\n" + "\"test.region\"() ({\n" * 2000 + "}) : () -> ()\n" * 2000 + "  return\n}\n")
mlir("syntax-long-line", "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  return %x : tensor<4xf32> " + "x" * 200000 + "\n}\n")
mlir("syntax-huge-integer", "func.func private @f() attributes {a = " + "9" * 5000 + " : i64}\n")
mlir("syntax-bad-escape", "func.func private @f() attributes {a = \"\\q\"}\n")
mlir("syntax-unterminated-string", "func.func private @f() attributes {a = \"abc}\n")
mlir("syntax-return-mismatch", "func.func @f(%x: tensor<4xf32>) -> tensor<8xf32> {\n  return %x : tensor<4xf32>\n}\n")
mlir("syntax-missing-return", "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n}\n")

# --- dist-opt: pass options ---------------------------------------------------

for name, option in [
        ("dp-zero", "dp=0"), ("dp-negative", "dp=-1"), ("dp-not-dividing", "dp=3"),
        ("dp-word", "dp=abc"), ("dp-float", "dp=2.5"), ("dp-2-40", "dp=1099511627776"),
        ("dp-past-int64", "dp=99999999999999999999"), ("dp-empty", "dp="),
        ("tp-2-40", "tp=1099511627776"), ("tp-negative", "tp=-2"),
        ("tp-not-dividing", "tp=3"), ("pp-zero", "pp=0"), ("pp-negative", "pp=-2"),
        ("pp-more-than-layers", "pp=5 microbatches=5"), ("pp-2-40", "pp=1099511627776"),
        ("microbatches-zero", "pp=2 microbatches=0"),
        ("microbatches-negative", "pp=2 microbatches=-4"),
        ("microbatches-not-dividing", "pp=2 microbatches=3"),
        ("microbatches-2-40", "pp=2 microbatches=1099511627776"),
        ("schedule-unknown", "pp=2 microbatches=2 schedule=zigzag"),
        ("interleave-zero", "pp=2 microbatches=2 schedule=1f1b interleave=0"),
        ("interleave-gpipe", "pp=2 microbatches=2 schedule=gpipe interleave=2"),
        ("interleave-too-many", "pp=2 microbatches=2 schedule=1f1b interleave=3"),
        ("first-layers-negative", "pp=2 microbatches=2 first-layers=-1"),
        ("first-layers-too-many", "pp=2 microbatches=2 first-layers=9"),
        ("last-layers-too-many", "pp=2 microbatches=2 last-layers=9"),
        ("grad-bucket-negative", "dp=2 grad-bucket-mb=-1"),
        ("grad-bucket-nan", "dp=2 grad-bucket-mb=nan"),
        ("grad-bucket-inf", "dp=2 grad-bucket-mb=inf"),
        ("mesh-empty", "mesh="), 
        ("layout-map-missing", "tp=2 layout-map=%S/missing.json"),
        ("layout-map-zero", "tp=2 layout-map=/dev/zero"),
        ("layout-map-directory", "tp=2 layout-map=%S"),
        ("layout-map-garbage", "tp=2 layout-map=%S/opt-syntax-binary.mlir"),
        ("cluster-unknown", "pp=2 microbatches=2 cluster=nope"),
        ("cluster-zero", "pp=2 microbatches=2 cluster=/dev/zero"),
        ("cluster-nodes-zero", "pp=2 microbatches=2 cluster=dgx-a100:nodes=0"),
        ("unknown-option", "dp=2 nope=3"), ("missing-value", "dp"),
        ("scatter-gather-word", "tp=2 pp=2 microbatches=2 scatter-gather=maybe"),
]:
    add("opt-parallelize-" + name,
        "dist-opt %S/base-mlp.mlir --dist-parallelize='" + option + "'")
put("opt-layout-map-duplicate-key.json",
    b'{"fc1.weight": [null, "tp"],\n "fc1.weight": ["tp", null]}\n')
add("opt-parallelize-layout-map-duplicate-key",
    "dist-opt %S/base-mlp.mlir --dist-parallelize='tp=2 layout-map=%S/opt-layout-map-duplicate-key.json'")
for name, pipeline in [
        ("data-parallel-2-40", "--dist-data-parallel=dp=1099511627776"),
        ("data-parallel-zero", "--dist-data-parallel=dp=0"),
        ("tensor-parallel-negative", "--dist-tensor-parallel=tp=-1"),
        ("pipeline-zero", "--dist-pipeline=pp=0"),
        ("pipeline-2-40", "--dist-pipeline='pp=1099511627776 microbatches=1'"),
        ("recompute-mode", "--dist-recompute=mode=sometimes"),
        ("unknown-pass", "--dist-nope"),
        ("pipeline-unclosed", "--pass-pipeline='builtin.module(dist-parallelize{dp=2'"),
        ("pipeline-unknown-anchor", "--pass-pipeline='nope.module(canonicalize)'"),
        ("pipeline-and-flag", "--pass-pipeline='builtin.module(canonicalize)' --canonicalize"),
]:
    add("opt-pass-" + name, "dist-opt %S/base-mlp.mlir " + pipeline)
add("opt-twice", "dist-opt %S/base-mlp.mlir -o %T/a.mlir -o %T/b.mlir")
add("opt-output-full", "dist-opt %S/base-mlp.mlir -o /dev/full")
add("opt-output-directory", "dist-opt %S/base-mlp.mlir -o %S")
add("opt-input-zero", "dist-opt /dev/zero")
add("opt-input-directory", "dist-opt %S")
add("opt-input-missing", "dist-opt %S/missing.mlir")

# --- dist-sim: clusters and profiles ----------------------------------------------

def cluster(name, text):
    add("sim-cluster-" + name,
        "dist-sim %S/base-placed.mlir --cluster %S/sim-cluster-" + name + ".json",
        **{"sim-cluster-" + name + "__json": text})

for name, text in [
        ("empty", ""), ("null", "null"), ("array", "[]"), ("string", "\"dgx\""),
        ("truncated", CLUSTER[:60]), ("trailing", CLUSTER + "}"),
        ("key-line-breaks", CLUSTER.replace("\"nodes\": 1", "\"nodes\": 1, \"no\\ndes\": 1")),
        ("name-line-breaks", CLUSTER.replace("{", "{\"name\": \"a\\nb\", ", 1)),
        ("nodes-missing", CLUSTER.replace("\"nodes\": 1, ", "")),
        ("nodes-zero", CLUSTER.replace("\"nodes\": 1", "\"nodes\": 0")),
        ("nodes-negative", CLUSTER.replace("\"nodes\": 1", "\"nodes\": -1")),
        ("nodes-fraction", CLUSTER.replace("\"nodes\": 1", "\"nodes\": 1.5")),
        ("nodes-string", CLUSTER.replace("\"nodes\": 1", "\"nodes\": \"1\"")),
        ("nodes-huge", CLUSTER.replace("\"nodes\": 1", "\"nodes\": 1e300")),
        ("nodes-overflow", CLUSTER.replace("\"nodes\": 1", "\"nodes\": 1e999")),
        ("nodes-2-63", CLUSTER.replace("\"nodes\": 1", "\"nodes\": 9223372036854775808")),
        ("nodes-2-64", CLUSTER.replace("\"nodes\": 1", "\"nodes\": 18446744073709551616")),
        ("devices-product-wraps", CLUSTER.replace("\"nodes\": 1, \"devices_per_node\": 2", "\"nodes\": 4294967296, \"devices_per_node\": 4294967296")),
        ("devices-zero", CLUSTER.replace("\"devices_per_node\": 2", "\"devices_per_node\": 0")),
        ("devices-too-few", CLUSTER.replace("\"devices_per_node\": 2", "\"devices_per_node\": 1")),
        ("memory-negative", CLUSTER.replace("1000000000", "-1")),
        ("memory-zero", CLUSTER.replace("1000000000", "0")),
        ("flops-zero", CLUSTER.replace("\"vector_flops\": 1e12", "\"vector_flops\": 0")),
        ("flops-negative", CLUSTER.replace("\"vector_flops\": 1e12", "\"vector_flops\": -1e12")),
        ("bandwidth-zero", CLUSTER.replace("\"bandwidth\": 1e10", "\"bandwidth\": 0")),
        ("latency-negative", CLUSTER.replace("\"latency_s\": 1e-6", "\"latency_s\": -1e-6")),
        ("matrix-flops-type", CLUSTER.replace("\"vector_flops\"", "\"matrix_flops\": {\"f7\": 1e12}, \"vector_flops\"")),
        ("matrix-flops-negative", CLUSTER.replace("\"vector_flops\"", "\"matrix_flops\": {\"f16\": -1}, \"vector_flops\"")),
        ("matrix-flops-list", CLUSTER.replace("\"vector_flops\"", "\"matrix_flops\": [1], \"vector_flops\"")),
        ("device-not-object", CLUSTER[:CLUSTER.index("\"device\"")] + "\"device\": 3}"),
        ("unknown-key", CLUSTER.replace("\"nodes\": 1", "\"nodes\": 1, \"gpus\": 8")),
        ("deep-nesting", "[" * 100000 + "]" * 100000),
        ("nul", CLUSTER.replace("\"device\"", "\"dev\0ice\"")),
        ("invalid-utf8", CLUSTER.replace("\"device\": {", "\"device\": {\"name\": \"\udcff\",")),
        ("nan-literal", CLUSTER.replace("1e12", "NaN")),
        ("comment", "// cluster\n" + CLUSTER),
        ("launch-negative", CLUSTER.replace("\"vector_flops\"", "\"launch_overhead_s\": -1, \"vector_flops\"")),
        ("duplicate-key", CLUSTER.replace("\"nodes\": 1", "\"nodes\": 1, \"nodes\": 2")),
        ("duplicate-nested-key", CLUSTER.replace("\"vector_flops\": 1e12", "\"vector_flops\": 1e12, \"vector_flops\": 2e12")),
]:
    if "\udcff" in text:
        put("sim-cluster-" + name + ".json", text.encode("utf-8", "surrogateescape"))
        add("sim-cluster-" + name,
            "dist-sim %S/base-placed.mlir --cluster %S/sim-cluster-" + name + ".json")
        continue
    cluster(name, text)

for name, spec in [
        ("preset-unknown", "dgx-z100"), ("preset-nodes-zero", "dgx-a100:nodes=0"),
        ("preset-nodes-negative", "dgx-a100:nodes=-2"),
        ("preset-nodes-word", "dgx-a100:nodes=two"),
        ("preset-nodes-2-40", "dgx-a100:nodes=1099511627776"),
        ("preset-nodes-twice", "dgx-a100:nodes=2,nodes=3"),
        ("preset-unknown-key", "dgx-a100:gpus=4"),
        ("preset-empty", "''"), ("zero", "/dev/zero"), ("directory", "%S"),
        ("missing", "%S/missing.json"),
]:
    add("sim-spec-" + name, "dist-sim %S/base-placed.mlir --cluster " + spec)

PROFILE = ('{"entries": [{"kind": "matmul", "dtype": "f32", '
           '"shapes": [[4, 16], [16, 16], [4, 16]], "seconds": 1e-5}]}\n')
for name, text in [
        ("empty", ""), ("not-object", "[1]"), ("entries-missing", "{}"),
        ("entries-object", "{\"entries\": {}}"),
        ("dtype-unknown", PROFILE.replace("\"f32\"", "\"f7\"")),
        ("seconds-negative", PROFILE.replace("1e-5", "-1e-5")),
        ("seconds-string", PROFILE.replace("1e-5", "\"fast\"")),
        ("seconds-overflow", PROFILE.replace("1e-5", "1e999")),
        ("shape-negative", PROFILE.replace("[4, 16], [16", "[-4, 16], [16")),
        ("shape-not-list", PROFILE.replace("[[4, 16], [16, 16], [4, 16]]", "4")),
        ("shape-huge", PROFILE.replace("[4, 16], [16", "[9223372036854775808, 16], [16")),
        ("truncated", PROFILE[:40]),
        ("deep-nesting", "{\"entries\": " + "[" * 100000 + "]" * 100000 + "}"),
        ("entry-not-object", "{\"entries\": [3]}"),
        ("kind-unknown", PROFILE.replace("\"matmul\"", "\"matmull\"")),
        ("kind-with-prefix", PROFILE.replace("\"matmul\"", "\"dist.matmul\"")),
        ("kind-collective", PROFILE.replace("\"matmul\"", "\"all_reduce\"")),
        ("entry-twice", PROFILE.replace("]}\n", ", " + PROFILE[13:-3] + "]}\n")),
        ("duplicate-key", PROFILE.replace("\"seconds\": 1e-5", "\"seconds\": 1e-5, \"seconds\": 2e-5")),
        # Found by dist-json-fuzz: the message quoted the key's line breaks.
        ("key-line-breaks", PROFILE.replace("\"dtype\"", "\"d\\r\\nt\\u001b[2Jype\"")),
        ("kind-line-breaks", PROFILE.replace("\"matmul\"", "\"mat\\nmul\"")),
        ("invalid-control-byte", PROFILE.replace("\"matmul\"", "\"mat\nmul\"")),
]:
    add("sim-profile-" + name,
        "dist-sim %S/base-placed.mlir --cluster dgx-a100 --profile %S/sim-profile-" + name + ".json",
        **{"sim-profile-" + name + "__json": text})

for name, options in [
        ("top-negative", "--cluster dgx-a100 --top -1"),
        ("top-word", "--cluster dgx-a100 --top many"),
        ("report-directory", "--cluster dgx-a100 --report %S"),
        ("report-full", "--cluster dgx-a100 --report /dev/full"),
        ("trace-directory", "--cluster dgx-a100 --trace %S"),
        ("unknown-option", "--cluster dgx-a100 --fast"),
        ("cluster-twice", "--cluster dgx-a100 --cluster dgx-h100"),
        ("no-cluster-value", "--cluster"),
]:
    add("sim-option-" + name, "dist-sim %S/base-placed.mlir " + options)
add("sim-program-zero", "dist-sim /dev/zero --cluster dgx-a100")
add("sim-program-directory", "dist-sim %S --cluster dgx-a100")
add("sim-program-missing", "dist-sim %S/missing.mlir --cluster dgx-a100")
add("sim-program-garbage", "dist-sim %S/opt-syntax-binary.mlir --cluster dgx-a100")
add("sim-program-bad-op", "dist-sim %S/opt-op-matmul-k-mismatch.mlir --cluster dgx-a100")
for name, program in [
        ("device-beyond-cluster", PLACED.replace("[0:2]", "[0:16]").replace("[2]", "[16]")),
        ("device-id-huge", PLACED.replace("[0:2]", "[1048574:1048576]").replace(
            "dist.mesh @mesh shape = [2] axes = [\"dp\"]\n", "")),
        ("unplaced-huge", "func.func @main(%x: tensor<4294967296x4294967296xf32>) {\n  return\n}\n"),
        ("unused-huge", "func.func @main(%x: tensor<4xf32>, %y: tensor<4611686018427387903xi8>) -> tensor<4xf32> {\n  return %x : tensor<4xf32>\n}\n"),
        ("bytes-wrap-to-small-peak", "func.func @main(%x: tensor<4294967296x4294967296xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {\n  return %y : tensor<4xf32>\n}\n"),
]:
    add("sim-program-" + name, "dist-sim %S/sim-program-" + name + ".mlir --cluster %S/base-cluster.json",
        **{"sim-program-" + name + "__mlir": program})

# --- dist-run: .npy inputs and options ------------------------------------------


def npy(descr, shape, data, fortran=False, version=b"\x01\x00", magic=b"\x93NUMPY",
        header=None):
    if header is None:
        header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
            descr, "True" if fortran else "False", shape)
    header = header.encode("latin-1")
    pad = 64 - (len(magic) + 2 + 2 + len(header) + 1) % 64
    header = header + b" " * pad + b"\n"
    return magic + version + struct.pack("<H", len(header)) + header + data


F32_8x16 = struct.pack("<128f", *range(128))
RUN = "dist-run %S/base-mlp.mlir --input input=%S/{0}"
for name, content in [
        ("bad-magic", npy("<f4", "(8, 16)", F32_8x16, magic=b"\x93NUMPX")),
        ("empty", b""),
        ("magic-only", b"\x93NUMPY"),
        ("version-9", npy("<f4", "(8, 16)", F32_8x16, version=b"\x09\x00")),
        ("header-length-huge", b"\x93NUMPY\x01\x00\xff\xff{'descr': '<f4'"),
        ("header-length-v2-huge", b"\x93NUMPY\x02\x00\xff\xff\xff\xff{'descr'"),
        ("header-not-dict", npy("", "", F32_8x16, header="[1, 2, 3]")),
        ("header-missing-descr", npy("", "", F32_8x16, header="{'fortran_order': False, 'shape': (8, 16), }")),
        ("header-missing-shape", npy("", "", F32_8x16, header="{'descr': '<f4', 'fortran_order': False, }")),
        ("header-unclosed", npy("", "", F32_8x16, header="{'descr': '<f4', 'shape': (8, 16")),
        ("descr-complex", npy("<c8", "(8, 16)", F32_8x16 * 2)),
        ("descr-object", npy("|O", "(8, 16)", F32_8x16)),
        ("descr-string", npy("<U4", "(8, 16)", F32_8x16 * 4)),
        ("descr-unknown", npy("<q9", "(8, 16)", F32_8x16)),
        ("shape-negative", npy("<f4", "(-8, 16)", F32_8x16)),
        ("shape-huge", npy("<f4", "(1099511627776, 16)", F32_8x16)),
        ("shape-wraps", npy("<f4", "(4294967296, 4294967296, 4294967296)", F32_8x16)),
        ("shape-past-int64", npy("<f4", "(99999999999999999999,)", F32_8x16)),
        ("shape-word", npy("<f4", "(eight, 16)", F32_8x16)),
        ("truncated-data", npy("<f4", "(8, 16)", F32_8x16[:100])),
        ("extra-data", npy("<f4", "(8, 16)", F32_8x16 + b"\0" * 12)),
        ("shape-mismatch", npy("<f4", "(16, 8)", F32_8x16)),
        ("dtype-mismatch", npy("<f8", "(8, 16)", F32_8x16 * 2)),
        ("fortran-word", npy("", "", F32_8x16, header="{'descr': '<f4', 'fortran_order': Maybe, 'shape': (8, 16), }")),
        ("header-nul", npy("", "", F32_8x16, header="{'descr': '<f4\0', 'fortran_order': False, 'shape': (8, 16), }")),
        # dist-npy-fuzz: a key holding a newline broke the error over lines.
        ("header-newline-key", npy("", "", F32_8x16, header="{'descr': '<f4', 'f\0\0\0\nortran_order': False, 'shape': (8, 16), }")),
        ("text", "1 2 3\n"),
]:
    file_name = "run-npy-" + name + ".npy"
    put(file_name, content)
    add("run-npy-" + name, RUN.format(file_name))

for name, options in [
        ("spec-no-name", "--input =%S/run-npy-empty.npy"),
        ("spec-no-equals", "--input input"),
        ("spec-unknown-argument", "--input nope=%S/run-npy-empty.npy"),
        ("spec-missing-file", "--input input=%S/missing.npy"),
        ("spec-directory", "--input input=%S"),
        ("spec-zero", "--input input=/dev/zero"),
        ("rtol-negative", "--reference %S/base-mlp.mlir --rtol -1"),
        ("rtol-nan", "--reference %S/base-mlp.mlir --rtol nan"),
        ("atol-inf", "--reference %S/base-mlp.mlir --atol inf"),
        ("rtol-word", "--reference %S/base-mlp.mlir --rtol tight"),
        ("seed-negative", "--seed -1"),
        ("seed-twice", "--seed 1 --seed 2"),
        ("entry-unknown", "--entry nope"),
        ("reference-missing", "--reference %S/missing.mlir"),
        ("reference-other-signature", "--reference %S/base-placed.mlir"),
        ("reference-garbage", "--reference %S/opt-syntax-binary.mlir"),
        ("weights-missing", "--weights %S/missing.onnx"),
        ("weights-garbage", "--weights %S/opt-syntax-binary.mlir"),
        ("weights-zero", "--weights /dev/zero"),
        ("output-dir-file", "--output-dir %S/base-mlp.mlir"),
        ("output-dir-full", "--output-dir /dev/full"),
        ("output-dir-proc", "--output-dir /proc/distir-cannot-create"),
        ("repeat-negative", "--repeat -1"),
]:
    add("run-option-" + name, "dist-run %S/base-mlp.mlir " + options)
add("run-program-zero", "dist-run /dev/zero")
add("run-program-directory", "dist-run %S")
add("run-program-garbage", "dist-run %S/opt-syntax-binary.mlir")
add("run-program-bad-op", "dist-run %S/opt-op-pad-max.mlir")
for name, program in [
        ("input-2-40", "func.func @main(%x: tensor<1099511627776xf32>) -> tensor<1099511627776xf32> {\n  return %x : tensor<1099511627776xf32>\n}\n"),
        ("constant-2-40", "func.func @main() -> tensor<1099511627776xf32> {\n  %0 = dist.constant dense<1.0> : tensor<1099511627776xf32>\n  return %0 : tensor<1099511627776xf32>\n}\n"),
        ("result-2-40", "func.func @main(%x: tensor<1xf32>) -> tensor<1099511627776xf32> {\n  %0 = dist.expand %x {shape = array<i64: 1099511627776>} : (tensor<1xf32>) -> tensor<1099511627776xf32>\n  return %0 : tensor<1099511627776xf32>\n}\n"),
        ("unused-2-40", "func.func @main(%x: tensor<4xf32>, %y: tensor<1099511627776xf32>) -> tensor<4xf32> {\n  return %x : tensor<4xf32>\n}\n"),
        ("replicated-2-40", "func.func @main(%x: tensor<1073741824xf32, #dist.devices<[0:1024]>>) -> tensor<1073741824xf32, #dist.devices<[0:1024]>> {\n  return %x : tensor<1073741824xf32, #dist.devices<[0:1024]>>\n}\n"),
        ("no-function", "dist.mesh @m shape = [2] axes = [\"dp\"]\n"),
        ("recursion", "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = func.call @main(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n"),
        ("external", "func.func private @main(tensor<4xf32>) -> tensor<4xf32>\n"),
        ("dynamic", "func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {\n  return %x : tensor<?xf32>\n}\n"),
]:
    add("run-program-" + name, "dist-run %S/run-program-" + name + ".mlir",
        **{"run-program-" + name + "__mlir": program})

# --- dist-translate: ONNX models ------------------------------------------------

ONNX_HEADER = '<ir_version: 8, opset_import: ["" : 13]>\n'


def onnx(name, graph, extra=""):
    add("translate-" + name,
        "dist-translate --import-onnx %S/translate-" + name + ".onnx.txt" + extra,
        **{"translate-" + name + "__onnx__txt": ONNX_HEADER + graph})


for name, graph in [
        ("constant-of-shape-huge", "g (float[2] X) => (float[1048576, 1048576] Y) {\n  s = Constant <value = int64[2] {1048576, 1048576}> ()\n  Y = ConstantOfShape (s)\n}\n"),
        ("constant-of-shape-negative", "g (float[2] X) => (float[2] Y) {\n  s = Constant <value = int64[1] {-2}> ()\n  Y = ConstantOfShape (s)\n}\n"),
        ("constant-of-shape-wraps", "g (float[2] X) => (float[2] Y) {\n  s = Constant <value = int64[3] {4294967296, 4294967296, 4294967296}> ()\n  Y = ConstantOfShape (s)\n}\n"),
        ("constant-of-shape-two-values", "g (float[2] X) => (float[2] Y) {\n  s = Constant <value = int64[1] {2}> ()\n  Y = ConstantOfShape <value = float[2] {1, 2}> (s)\n}\n"),
        ("reshape-two-inferred", "g (float[2, 3] X) => (float[6] Y) {\n  s = Constant <value = int64[2] {-1, -1}> ()\n  Y = Reshape (X, s)\n}\n"),
        ("reshape-count", "g (float[2, 3] X) => (float[7] Y) {\n  s = Constant <value = int64[1] {7}> ()\n  Y = Reshape (X, s)\n}\n"),
        ("reshape-minus-two", "g (float[2, 3] X) => (float[6] Y) {\n  s = Constant <value = int64[1] {-2}> ()\n  Y = Reshape (X, s)\n}\n"),
        ("reshape-wraps", "g (float[2, 3] X) => (float[6] Y) {\n  s = Constant <value = int64[3] {4294967296, 4294967296, 0}> ()\n  Y = Reshape (X, s)\n}\n"),
        ("transpose-duplicate", "g (float[2, 3] X) => (float[3, 2] Y) {\n  Y = Transpose <perm = [0, 0]> (X)\n}\n"),
        ("transpose-range", "g (float[2, 3] X) => (float[3, 2] Y) {\n  Y = Transpose <perm = [1, 5]> (X)\n}\n"),
        ("concat-axis", "g (float[2, 3] X) => (float[4, 3] Y) {\n  Y = Concat <axis = 4> (X, X)\n}\n"),
        ("concat-mismatch", "g (float[2, 3] X, float[2, 4] Z) => (float[4, 3] Y) {\n  Y = Concat <axis = 0> (X, Z)\n}\n"),
        ("matmul-mismatch", "g (float[2, 3] X) => (float[2, 2] Y) {\n  Y = MatMul (X, X)\n}\n"),
        ("gather-float-indices", "g (float[2, 3] X) => (float[2, 3, 3] Y) {\n  Y = Gather (X, X)\n}\n"),
        ("gather-axis", "g (float[2, 3] X, int64[2] I) => (float[2, 3] Y) {\n  Y = Gather <axis = 7> (X, I)\n}\n"),
        ("conv-zero-stride", "g (float[1, 1, 4, 4] X, float[1, 1, 2, 2] W) => (float[1, 1, 3, 3] Y) {\n  Y = Conv <strides = [0, 1]> (X, W)\n}\n"),
        ("conv-negative-pads", "g (float[1, 1, 4, 4] X, float[1, 1, 2, 2] W) => (float[1, 1, 3, 3] Y) {\n  Y = Conv <pads = [-9, 0, 0, 0]> (X, W)\n}\n"),
        ("conv-pads-wrap", "g (float[1, 1, 4, 4] X, float[1, 1, 2, 2] W) => (float[1, 1, 3, 3] Y) {\n  Y = Conv <pads = [9223372036854775807, 0, 9223372036854775807, 0]> (X, W)\n}\n"),
        ("conv-group-zero", "g (float[1, 2, 4, 4] X, float[2, 1, 2, 2] W) => (float[1, 2, 3, 3] Y) {\n  Y = Conv <group = 0> (X, W)\n}\n"),
        ("conv-dilation-zero", "g (float[1, 1, 4, 4] X, float[1, 1, 2, 2] W) => (float[1, 1, 3, 3] Y) {\n  Y = Conv <dilations = [0, 1]> (X, W)\n}\n"),
        ("maxpool-kernel-zero", "g (float[1, 1, 4, 4] X) => (float[1, 1, 4, 4] Y) {\n  Y = MaxPool <kernel_shape = [0, 0]> (X)\n}\n"),
        ("slice-step-zero", "g (float[4] X) => (float[2] Y) {\n  s = Constant <value = int64[1] {0}> ()\n  e = Constant <value = int64[1] {4}> ()\n  a = Constant <value = int64[1] {0}> ()\n  t = Constant <value = int64[1] {0}> ()\n  Y = Slice (X, s, e, a, t)\n}\n"),
        ("split-sizes", "g (float[4] X) => (float[1] Y, float[1] Z) {\n  s = Constant <value = int64[2] {1, 1}> ()\n  Y, Z = Split <axis = 0> (X, s)\n}\n"),
        ("split-sizes-wrap", "g (float[4] X) => (float[1] Y, float[1] Z) {\n  s = Constant <value = int64[2] {9223372036854775807, 9223372036854775807}> ()\n  Y, Z = Split <axis = 0> (X, s)\n}\n"),
        ("expand-bad", "g (float[2, 3] X) => (float[4, 3] Y) {\n  s = Constant <value = int64[2] {4, 3}> ()\n  Y = Expand (X, s)\n}\n"),
        ("softmax-axis", "g (float[2, 3] X) => (float[2, 3] Y) {\n  Y = Softmax <axis = 9> (X)\n}\n"),
        ("cast-string", "g (float[2, 3] X) => (string[2, 3] Y) {\n  Y = Cast <to = 8> (X)\n}\n"),
        ("input-complex", "g (complex64[2] X) => (complex64[2] Y) {\n  Y = Identity (X)\n}\n"),
        ("output-undefined", "g (float[2] X) => (float[2] Y) {\n  Z = Relu (X)\n}\n"),
        ("duplicate-output", "g (float[2] X) => (float[2] Y) {\n  Y = Relu (X)\n  Y = Relu (X)\n}\n"),
        ("initializer-short", "g (float[2] X) => (float[2] Y)\n<float[4] W = {1, 2}>\n{\n  Y = Add (X, W)\n}\n"),
        ("dim-huge", "g (float[9223372036854775807, 4] X) => (float[9223372036854775807, 4] Y) {\n  Y = Relu (X)\n}\n"),
        ("gemm-rank3", "g (float[2, 3, 4] X, float[4, 5] W) => (float[2, 3, 5] Y) {\n  Y = Gemm (X, W)\n}\n"),
        ("dropout-ratio-above-one", "g (float[2] X) => (float[2] Y) {\n  r = Constant <value = float {1.5}> ()\n  Y = Dropout (X, r)\n}\n"),
        ("dropout-ratio-nan", "g (float[2] X) => (float[2] Y) {\n  r = Constant <value = float {nan}> ()\n  Y = Dropout (X, r)\n}\n"),
        ("dropout-mask-huge", "g (float[1048576, 1048576] X) => (float[1048576, 1048576] Y, bool[1048576, 1048576] M) {\n  Y, M = Dropout (X)\n}\n"),
        ("layer-norm-huge-bias", "g (float[2, 4294967296] X, float[4294967296] S) => (float[2, 4294967296] Y) {\n  Y = LayerNormalization <axis = -1> (X, S)\n}\n"),
        ("unsupported", "g (float[2] X) => (float[2] Y) {\n  Y = Abs (X)\n}\n"),
        ("custom-domain", "g (float[2] X) => (float[2] Y) {\n  Y = com.example.Op (X)\n}\n"),
]:
    onnx(name, graph)
onnx("opset-future", "g (float[2] X) => (float[2] Y) {\n  Y = Relu (X)\n}\n")
files["translate-opset-future.onnx.txt"] = files["translate-opset-future.onnx.txt"].replace(b'"" : 13', b'"" : 99')
for name, option in [
        ("input-shape-negative", "--input-shape X=-1x3"),
        ("input-shape-huge", "--input-shape X=99999999999999999999x3"),
        ("input-shape-trailing", "--input-shape X=2x"),
        ("input-shape-unknown", "--input-shape Q=2x3"),
        ("input-shape-rank", "--input-shape X=2x3x4"),
        ("input-shape-wraps", "--input-shape X=4294967296x4294967296"),
        ("input-value-missing", "--input-value X=%S/missing.npy"),
        ("input-value-zero", "--input-value X=/dev/zero"),
        ("output-full", "-o /dev/full"),
        ("output-directory", "-o %S"),
]:
    add("translate-option-" + name,
        "dist-translate --import-onnx %S/translate-dynamic.onnx.txt " + option)
put("translate-dynamic.onnx.txt", ONNX_HEADER + "g (float[N, 3] X) => (float[N, 3] Y) {\n  Y = Relu (X)\n}\n")
for name, content in [
        ("empty", b""), ("garbage", bytes(range(256)) * 3),
        ("text-garbage", b"<ir_version: 8\ng (float[2] X) => {\n"),
        ("protobuf-bad-tag", b"\x08\x08\x12\xff\xff\xff\xff\x0f"),
        ("protobuf-length-huge", b"\x3a\xff\xff\xff\xff\x07"),
        ("protobuf-deep", b"\x3a\x02" * 20000),
]:
    put("translate-binary-" + name + ".onnx", content)
    add("translate-binary-" + name,
        "dist-translate --import-onnx %S/translate-binary-" + name + ".onnx")
add("translate-zero", "dist-translate --import-onnx /dev/zero")
add("translate-directory", "dist-translate --import-onnx %S")
add("translate-missing", "dist-translate --import-onnx %S/missing.onnx")
add("translate-no-mode", "dist-translate %S/base-mlp.mlir")

# --- dist-gen ------------------------------------------------------------------

for name, options in [
        ("unknown-model", "resnet9000"), ("layers-zero", "mlp --layers 0"),
        ("layers-negative", "mlp --layers -1"),
        ("layers-huge", "mlp --layers 2147483647"),
        ("layers-past-int", "mlp --layers 99999999999"),
        ("hidden-zero", "mlp --hidden 0"), ("hidden-negative", "mlp --hidden -8"),
        ("hidden-2-40", "mlp --hidden 1099511627776"),
        ("hidden-wraps", "mlp --hidden 4294967296"),
        ("batch-zero", "mlp --batch 0"), ("batch-2-62", "mlp --batch 4611686018427387904"),
        ("heads-not-dividing", "gpt --hidden 64 --heads 3"),
        ("heads-zero", "gpt --hidden 64 --heads 0"),
        ("seq-zero", "gpt --seq 0"), ("vocab-zero", "gpt --vocab 0"),
        ("vocab-2-40", "gpt --vocab 1099511627776 --hidden 1048576"),
        ("dropout-above-one", "gpt --dropout 1.5"),
        ("dropout-negative", "gpt --dropout -0.1"),
        ("dropout-nan", "gpt --dropout nan"),
        ("attention-unknown", "gpt --attention sparse"),
        ("unknown-option", "mlp --width 8"),
        ("layers-twice", "mlp --layers 2 --layers 3"),
        ("output-full", "mlp -o /dev/full"),
        ("output-directory", "mlp -o %S"),
        ("no-model", ""),
]:
    add("gen-" + name, "dist-gen " + options)

# --- dist-search -----------------------------------------------------------------

for name, options in [
        ("model-unknown", "nope --cluster dgx-a100 --global-batch 8"),
        ("model-layers-zero", "mlp:layers=0,hidden=8 --cluster dgx-a100 --global-batch 8"),
        ("model-hidden-word", "mlp:layers=2,hidden=wide --cluster dgx-a100 --global-batch 8"),
        ("model-key-unknown", "mlp-xs,depth=3 --cluster dgx-a100 --global-batch 8"),
        ("model-key-twice", "mlp-xs,layers=2,layers=3 --cluster dgx-a100 --global-batch 8"),
        ("model-layers-negative", "mlp-xs,layers=-1 --cluster dgx-a100 --global-batch 8"),
        ("model-hidden-2-40", "mlp:layers=2,hidden=1099511627776 --cluster dgx-a100 --global-batch 8"),
        ("global-batch-zero", "mlp-xs --cluster dgx-a100 --global-batch 0"),
        ("global-batch-negative", "mlp-xs --cluster dgx-a100 --global-batch -8"),
        ("global-batch-2-62", "mlp-xs --cluster dgx-a100 --global-batch 4611686018427387904"),
        ("cluster-unknown", "mlp-xs --cluster dgx-z100 --global-batch 8"),
        ("cluster-zero", "mlp-xs --cluster /dev/zero --global-batch 8"),
        ("cluster-nodes-2-40", "mlp-xs --cluster dgx-a100:nodes=1099511627776 --global-batch 8"),
        ("cluster-bad-file", "mlp-xs --cluster %S/sim-cluster-nodes-zero.json --global-batch 8"),
        ("top-negative", "mlp-xs --cluster dgx-a100 --global-batch 8 --top -1"),
        ("microbatches-zero", "mlp-xs --cluster dgx-a100 --global-batch 8 --microbatches 0"),
        ("interleave-zero", "mlp-xs --cluster dgx-a100 --global-batch 8 --interleave 0"),
        ("csv-full", "mlp-xs --cluster dgx-a100 --global-batch 8 --csv /dev/full"),
        ("csv-directory", "mlp-xs --cluster dgx-a100 --global-batch 8 --csv %S"),
        ("program-zero", "/dev/zero --cluster dgx-a100 --global-batch 8"),
        ("program-directory", "%S --cluster dgx-a100 --global-batch 8"),
        ("program-garbage", "%S/opt-syntax-binary.mlir --cluster dgx-a100 --global-batch 8"),
        ("program-bad-op", "%S/opt-op-split-wraps.mlir --cluster dgx-a100 --global-batch 8"),
        ("unknown-option", "mlp-xs --cluster dgx-a100 --global-batch 8 --fast"),
]:
    add("search-" + name, "dist-search " + options)


def main():
    if os.path.isdir(CASES):
        shutil.rmtree(CASES)
    os.makedirs(CASES)
    for file_name, content in sorted(files.items()):
        with open(os.path.join(CASES, file_name), "wb") as f:
            f.write(content)
    with open(os.path.join(HERE, "cases.txt"), "w") as f:
        f.write("# Generated by generate.py: <name> <tool> <arguments>; %S is "
                "cases/, %T a fresh directory.\n")
        for name, command in cases:
            f.write("%s %s\n" % (name, command))
    print("%d cases, %d files" % (len(cases), len(files)))


if __name__ == "__main__":
    main()
