#!/usr/bin/python3
"""Whole real models through distir, from ONNX to a simulated training step.

Builds two architectures as ONNX files with python3-onnx (random weights; a
ResNet-18 CNN laid out like torchvision's and a pre-norm transformer encoder
laid out like PyTorch's export of a BERT-style model, with its GELU written
out through Erf as exporters do), then runs each through

  dist-translate --import-onnx -> dist-opt --dist-infer-shapes
  -> dist-opt --dist-autodiff=optimizer=adam -> a parallelization
     (dist-data-parallel, dist-tensor-parallel, dist-pipeline or their
     composition dist-parallelize) -> dist-sim --cluster dgx-a100

for several parallel configurations, and prints one table row per model and
configuration: sizes, the time of each step, and the simulated step time and
peak memory per device. A step that fails is reported with its one-line
error (and the row stops there).

  /usr/bin/python3 bench/onnx/whole_models.py            # from the repository root
  /usr/bin/python3 bench/onnx/whole_models.py --scale base   # BERT-base size encoder
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Graph:
    """Collects nodes and random initializers of one ONNX graph."""

    def __init__(self, seed):
        self.nodes, self.initializers = [], []
        self.rng = np.random.default_rng(seed)
        self.count = 0

    def weight(self, name, shape, scale=0.02, value=None):
        if value is None:
            value = self.rng.normal(0.0, scale, shape)
        self.initializers.append(
            numpy_helper.from_array(np.asarray(value, dtype=np.float32), name))
        return name

    def constant(self, value, scope):
        """A scalar literal, as exporters write it: a Constant node."""
        tensor = numpy_helper.from_array(np.asarray(value, dtype=np.float32))
        return self.node("Constant", [], scope, value=tensor)

    def ints(self, name, values):
        self.initializers.append(
            numpy_helper.from_array(np.asarray(values, dtype=np.int64), name))
        return name

    def node(self, op, inputs, scope, outputs=1, **attrs):
        """Adds a node named like a PyTorch export ("/layer1/conv1/Conv")."""
        self.count += 1
        names = [f"{scope}/{op}_{self.count}_{i}" for i in range(outputs)]
        self.nodes.append(helper.make_node(op, inputs, names,
                                           name=f"{scope}/{op}", **attrs))
        return names[0] if outputs == 1 else names

    def model(self, name, inputs, outputs, opset):
        graph = helper.make_graph(self.nodes, name, inputs, outputs,
                                  self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                                  producer_name="distir bench/onnx")
        onnx.checker.check_model(model)
        return model


def resnet18(batch, image, classes):
    """torchvision's ResNet-18: 7x7 stem, max pool, four stages of two
    BasicBlocks (64, 128, 256, 512 channels), global average pool, fc, and a
    softmax cross-entropy loss over the labels."""
    g = Graph(seed=18)

    def conv_bn(x, name, cin, cout, kernel, stride, scope, relu=True):
        w = g.weight(f"{name}.weight", (cout, cin, kernel, kernel),
                     scale=np.sqrt(2.0 / (cin * kernel * kernel)))
        y = g.node("Conv", [x, w], f"{scope}/{name.split('.')[-1]}",
                   kernel_shape=[kernel, kernel], strides=[stride, stride],
                   pads=[kernel // 2] * 4)
        bn = name.replace("conv", "bn").replace("downsample.0", "downsample.1")
        params = [g.weight(f"{bn}.weight", (cout,), value=np.ones(cout)),
                  g.weight(f"{bn}.bias", (cout,), value=np.zeros(cout)),
                  g.weight(f"{bn}.running_mean", (cout,), value=np.zeros(cout)),
                  g.weight(f"{bn}.running_var", (cout,), value=np.ones(cout))]
        y = g.node("BatchNormalization", [y] + params, f"{scope}/{bn.split('.')[-1]}",
                   epsilon=1e-5)
        return g.node("Relu", [y], scope) if relu else y

    x = conv_bn("input", "conv1", 3, 64, 7, 2, "")
    x = g.node("MaxPool", [x], "/maxpool", kernel_shape=[3, 3], strides=[2, 2],
               pads=[1, 1, 1, 1])
    cin = 64
    for stage, cout in enumerate([64, 128, 256, 512], start=1):
        for block in range(2):
            stride = 2 if stage > 1 and block == 0 else 1
            prefix = f"layer{stage}.{block}"
            scope = f"/layer{stage}/layer{stage}.{block}"
            y = conv_bn(x, f"{prefix}.conv1", cin, cout, 3, stride, scope)
            y = conv_bn(y, f"{prefix}.conv2", cout, cout, 3, 1, scope, relu=False)
            shortcut = x
            if stride != 1 or cin != cout:
                shortcut = conv_bn(x, f"{prefix}.downsample.0", cin, cout, 1,
                                   stride, scope + "/downsample", relu=False)
            x = g.node("Relu", [g.node("Add", [y, shortcut], scope)], scope)
            cin = cout
    x = g.node("GlobalAveragePool", [x], "/avgpool")
    x = g.node("Flatten", [x], "/flatten", axis=1)
    logits = g.node("Gemm", [x, g.weight("fc.weight", (classes, 512)),
                             g.weight("fc.bias", (classes,), value=np.zeros(classes))],
                    "/fc", transB=1)
    g.nodes.append(helper.make_node("SoftmaxCrossEntropyLoss", [logits, "labels"],
                                    ["loss"], name="/loss", reduction="mean"))
    inputs = [helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                            ["batch", 3, image, image]),
              helper.make_tensor_value_info("labels", TensorProto.INT64, ["batch"])]
    outputs = [helper.make_tensor_value_info("loss", TensorProto.FLOAT, [])]
    shapes = {"input": f"{batch}x3x{image}x{image}", "labels": f"{batch}"}
    return g.model("resnet18", inputs, outputs, opset=13), shapes


def encoder(batch, seq, layers, hidden, heads, vocab):
    """A pre-norm transformer encoder (bidirectional attention) with a token
    prediction head and loss. Parameter names follow dist-gen's GPT (so that
    dist-tensor-parallel's Megatron layouts apply); the qkv columns are
    head-major; shapes are computed from Shape/Gather/Concat like exported
    models do."""
    g = Graph(seed=7)
    d = hidden // heads
    x = g.node("Gather", [g.weight("embed.tokens.weight", (vocab, hidden)), "tokens"],
               "/embed/tokens")
    x = g.node("Add", [x, g.weight("embed.positions.weight", (seq, hidden))], "/embed")
    # The batch size as exporters compute it: from the input's shape.
    batch_dim = g.node("Gather", [g.node("Shape", ["tokens"], "/shape"),
                                  g.ints("zero", 0)], "/shape", axis=0)
    batch_1d = g.node("Unsqueeze", [batch_dim, g.ints("axes0", [0])], "/shape")

    def shape(scope, *dims):
        parts = [batch_1d] + [g.ints(f"{scope}.dims{i}", [v])
                              for i, v in enumerate(dims)]
        return g.node("Concat", parts, scope, axis=0)

    def linear(x, name, cin, cout, scope):
        y = g.node("MatMul", [x, g.weight(f"{name}.weight", (cin, cout))], scope)
        return g.node("Add", [y, g.weight(f"{name}.bias", (cout,), value=np.zeros(cout))],
                      scope)

    def layer_norm(x, name, scope):
        return g.node("LayerNormalization",
                      [x, g.weight(f"{name}.weight", (hidden,), value=np.ones(hidden)),
                       g.weight(f"{name}.bias", (hidden,), value=np.zeros(hidden))],
                      scope, axis=-1, epsilon=1e-5)

    for i in range(layers):
        p, scope = f"layers.{i}.", f"/encoder/layers.{i}"
        h = layer_norm(x, p + "ln1", scope + "/ln1")
        qkv = linear(h, p + "attn.qkv", hidden, 3 * hidden, scope + "/attn/qkv")
        qkv = g.node("Reshape", [qkv, shape(scope + "/attn/heads", seq, heads, 3, d)],
                     scope + "/attn")
        q, k, v = g.node("Split", [qkv, g.ints(p + "split", [1, 1, 1])],
                         scope + "/attn", outputs=3, axis=3)

        def heads_first(t, which):
            t = g.node("Reshape", [t, shape(f"{scope}/attn/{which}", seq, heads, d)],
                       scope + "/attn")
            return g.node("Transpose", [t], scope + "/attn", perm=[0, 2, 1, 3])

        q, k, v = heads_first(q, "q"), heads_first(k, "k"), heads_first(v, "v")
        kt = g.node("Transpose", [k], scope + "/attn", perm=[0, 1, 3, 2])
        scores = g.node("MatMul", [q, kt], scope + "/attn")
        scale = g.constant(np.sqrt(d), scope + "/attn")
        probs = g.node("Softmax", [g.node("Div", [scores, scale], scope + "/attn")],
                       scope + "/attn", axis=-1)
        ctx = g.node("Transpose", [g.node("MatMul", [probs, v], scope + "/attn")],
                     scope + "/attn", perm=[0, 2, 1, 3])
        ctx = g.node("Reshape", [ctx, shape(scope + "/attn/merge", seq, hidden)],
                     scope + "/attn")
        x = g.node("Add", [x, linear(ctx, p + "attn.proj", hidden, hidden,
                                     scope + "/attn/proj")], scope)
        h = layer_norm(x, p + "ln2", scope + "/ln2")
        h = linear(h, p + "mlp.fc1", hidden, 4 * hidden, scope + "/mlp/fc1")
        # GELU as exporters write it: 0.5 x (1 + erf(x / sqrt 2)).
        gelu = scope + "/mlp/gelu"
        e = g.node("Erf", [g.node("Div", [h, g.constant(np.sqrt(2), gelu)], gelu)], gelu)
        e = g.node("Add", [e, g.constant(1.0, gelu)], gelu)
        h = g.node("Mul", [g.node("Mul", [h, e], gelu), g.constant(0.5, gelu)], gelu)
        h = linear(h, p + "mlp.fc2", 4 * hidden, hidden, scope + "/mlp/fc2")
        x = g.node("Add", [x, h], scope)
    x = layer_norm(x, "final_ln", "/final_ln")
    logits = g.node("MatMul", [x, g.weight("lm_head.weight", (hidden, vocab))], "/lm_head")
    flat = g.node("Reshape", [logits, g.ints("flat_shape", [-1, vocab])], "/loss")
    labels = g.node("Reshape", ["labels", g.ints("flat_labels", [-1])], "/loss")
    g.nodes.append(helper.make_node("SoftmaxCrossEntropyLoss", [flat, labels], ["loss"],
                                    name="/loss/SoftmaxCrossEntropyLoss"))
    inputs = [helper.make_tensor_value_info("tokens", TensorProto.INT64, ["batch", seq]),
              helper.make_tensor_value_info("labels", TensorProto.INT64, ["batch", seq])]
    outputs = [helper.make_tensor_value_info("loss", TensorProto.FLOAT, [])]
    shapes = {"tokens": f"{batch}x{seq}", "labels": f"{batch}x{seq}"}
    return g.model("encoder", inputs, outputs, opset=17), shapes


def count_ops(path):
    with open(path) as f:
        return sum(1 for line in f if re.search(r"= dist\.", line))


class Step:
    """Runs one command, timing it; remembers the first failure."""

    def __init__(self):
        self.error = None

    def __call__(self, label, command):
        if self.error:
            return None
        if not os.path.exists(command[0]):
            self.error = f"{label}: {command[0]} is not built"
            return None
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            lines = (result.stderr or result.stdout).strip().splitlines()
            errors = [line for line in lines if "error" in line] or lines
            self.error = f"{label}: " + (errors[0] if errors else f"exit {result.returncode}")
            return None
        return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--scale", choices=["small", "base"], default="small",
                        help="encoder size: small (6 layers, hidden 512) or base "
                             "(BERT-base: 12 layers, hidden 768, vocab 30522)")
    parser.add_argument("--cluster", default="dgx-a100")
    parser.add_argument("--keep", help="keep the intermediate files in this folder")
    args = parser.parse_args()
    tool = lambda name: os.path.join(args.bin, name)

    work = args.keep or tempfile.mkdtemp(prefix="distir-onnx-bench.")
    os.makedirs(work, exist_ok=True)
    if args.scale == "base":
        enc = dict(batch=32, seq=128, layers=12, hidden=768, heads=12, vocab=30522)
    else:
        enc = dict(batch=32, seq=128, layers=6, hidden=512, heads=8, vocab=8192)
    models = [("resnet18", lambda: resnet18(batch=64, image=224, classes=1000)),
              (f"encoder-{args.scale}", lambda: encoder(**enc))]
    # (label, dist-opt pass pipeline after autodiff, mesh declaration or None)
    configs = {
        "resnet18": [("dp=8", "--dist-data-parallel=dp=8", None),
                     ("pp=4 mb=8", "--dist-pipeline=pp=4 microbatches=8 schedule=1f1b", None),
                     ("dp=4 pp=2", "--dist-parallelize=dp=4 pp=2 microbatches=4", None)],
        f"encoder-{args.scale}": [
            ("dp=8", "--dist-data-parallel=dp=8", None),
            ("tp=4", "--dist-tensor-parallel=tp=4", None),
            ("dp=2 x tp=4", "--dist-data-parallel=annotate-only --dist-tensor-parallel",
             'dist.mesh @world shape = [2, 4] axes = ["dp", "tp"]'),
            ("pp=4 mb=8", "--dist-pipeline=pp=4 microbatches=8 schedule=1f1b", None),
            ("dp2 tp2 pp2", "--dist-parallelize=dp=2 tp=2 pp=2 microbatches=4", None)],
    }

    header = (f"{'model':<15} {'weights':>8} {'onnx MB':>7} {'ops':>5} {'import s':>8} "
              f"{'train ops':>9} {'autodiff s':>10} {'config':<12} {'parallel s':>10} "
              f"{'sim s':>6} {'step ms':>9} {'peak GiB':>8}")
    print(header)
    print("-" * len(header))
    try:
        for name, build in models:
            model, shapes = build()
            path = os.path.join(work, name + ".onnx")
            onnx.save(model, path)
            params = sum(int(np.prod(t.dims)) for t in model.graph.initializer
                         if t.data_type == TensorProto.FLOAT)
            size_mb = os.path.getsize(path) / 2**20
            run = Step()
            imported = os.path.join(work, name + ".mlir")
            shape_args = [f"--input-shape={k}={v}" for k, v in shapes.items()]
            t_import = run("import", [tool("dist-translate"), "--import-onnx", path,
                                      *shape_args, "-o", imported])
            inferred = os.path.join(work, name + ".shapes.mlir")
            run("infer-shapes", [tool("dist-opt"), imported, "--dist-infer-shapes",
                                 "-o", inferred])
            train = os.path.join(work, name + ".train.mlir")
            t_autodiff = run("autodiff", [tool("dist-opt"), inferred,
                                          "--dist-autodiff=optimizer=adam", "-o", train])
            prefix = (f"{name:<15} {params / 1e6:7.1f}M {size_mb:7.1f} "
                      f"{count_ops(imported) if t_import else 0:5d} "
                      f"{t_import or 0:8.2f} {count_ops(train) if t_autodiff else 0:9d} "
                      f"{t_autodiff or 0:10.2f}")
            if run.error:
                print(f"{prefix}  FAILED {run.error}")
                continue
            for label, passes, mesh in configs[name]:
                step = Step()
                source = train
                if mesh:
                    source = os.path.join(work, f"{name}.mesh.mlir")
                    with open(train) as f, open(source, "w") as out:
                        out.write(f.read().replace("module {", "module {\n  " + mesh, 1))
                placed = os.path.join(work, f"{name}.{label.replace(' ', '')}.mlir")
                t_parallel = step("parallelize", [tool("dist-opt"), source,
                                                  *passes_to_args(passes), "-o", placed])
                report = placed + ".report.json"
                t_sim = step("simulate", [tool("dist-sim"), placed, "--cluster",
                                          args.cluster, "--report", report])
                if step.error:
                    print(f"{prefix} {label:<12}  FAILED {step.error}")
                    continue
                with open(report) as f:
                    sim = json.load(f)
                fits = "" if sim.get("fits", True) else " (does not fit)"
                print(f"{prefix} {label:<12} {t_parallel:10.2f} {t_sim:6.2f} "
                      f"{sim['step_time_s'] * 1e3:9.2f} "
                      f"{sim['peak_memory_bytes'] / 2**30:8.2f}{fits}")
                sys.stdout.flush()
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def passes_to_args(passes):
    """'--a=x y --b' -> ['--a=x y', '--b'] (pass options may hold spaces)."""
    return ["--" + p.strip() for p in passes.split("--") if p.strip()]


if __name__ == "__main__":
    sys.exit(main())
