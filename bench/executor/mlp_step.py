#!/usr/bin/env python3
"""One SGD training step of an MLP (DistIR's MLP: every layer matmul + relu,
mean squared error loss), written two ways that do the same arithmetic:

  python3 mlp_step.py mlir  [--layers L --width W --batch B]  -> dist MLIR on stdout
  python3 mlp_step.py numpy [--layers L --width W --batch B --repeat N]
      -> times the same step in NumPy (float32), one line per run

The MLIR is written by hand here so that the benchmark does not depend on
dist-gen or dist-autodiff.
"""
import argparse
import sys
import time

LEARNING_RATE = 0.01


def emit_mlir(layers, width, batch):
    act = f"tensor<{batch}x{width}xf32>"
    mat = f"tensor<{width}x{width}xf32>"
    args = [f'%x: {act} {{dist.name = "x"}}', f'%target: {act} {{dist.name = "target"}}']
    args += [f'%w{i}: {mat} {{dist.name = "w{i}"}}' for i in range(layers)]
    results = ['tensor<f32> {dist.name = "loss"}']
    results += [f'{mat} {{dist.name = "new_w{i}"}}' for i in range(layers)]
    out = [f"func.func @main({', '.join(args)})", f"    -> ({', '.join(results)}) {{"]
    # Forward: h0 = x, z_i = h_i w_i, h_{i+1} = relu(z_i).
    for i in range(layers):
        h = "%x" if i == 0 else f"%h{i}"
        out.append(f"  %z{i} = dist.matmul {h}, %w{i} : ({act}, {mat}) -> {act}")
        out.append(f"  %h{i + 1} = dist.relu %z{i} : ({act}) -> {act}")
    out.append(f"  %loss = dist.mse_loss %h{layers}, %target : ({act}, {act}) -> tensor<f32>")
    # Backward.
    out.append("  %one = dist.constant dense<1.0> : tensor<f32>")
    out.append(f"  %dh{layers} = dist.mse_loss_grad %one, %h{layers}, %target"
               f" : (tensor<f32>, {act}, {act}) -> {act}")
    for i in reversed(range(layers)):
        h = "%x" if i == 0 else f"%h{i}"
        out.append(f"  %dz{i} = dist.relu_grad %dh{i + 1}, %z{i} : ({act}, {act}) -> {act}")
        out.append(f"  %dw{i} = dist.matmul {h}, %dz{i} {{transpose_a}} : ({act}, {act}) -> {mat}")
        if i > 0:
            out.append(f"  %dh{i} = dist.matmul %dz{i}, %w{i} {{transpose_b}} : ({act}, {mat}) -> {act}")
        out.append(f"  %new_w{i} = dist.sgd_update %w{i}, %dw{i} {{lr = {LEARNING_RATE} : f64}}"
                   f" : ({mat}, {mat}) -> {mat}")
    names = ", ".join(["%loss"] + [f"%new_w{i}" for i in range(layers)])
    types = ", ".join(["tensor<f32>"] + [mat] * layers)
    out.append(f"  return {names} : {types}")
    out.append("}")
    return "\n".join(out) + "\n"


def numpy_step(np, x, target, weights):
    zs, hs = [], [x]
    for w in weights:
        z = hs[-1] @ w
        zs.append(z)
        hs.append(np.maximum(z, np.float32(0)))
    diff = hs[-1] - target
    loss = np.mean(diff * diff, dtype=np.float64)
    dh = diff * np.float32(2.0 / diff.size)
    new_weights = [None] * len(weights)
    for i in reversed(range(len(weights))):
        dz = np.where(zs[i] > 0, dh, np.float32(0))
        dw = hs[i].T @ dz
        if i > 0:
            dh = dz @ weights[i].T
        new_weights[i] = weights[i] - np.float32(LEARNING_RATE) * dw
    return loss, new_weights


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["mlir", "numpy"])
    parser.add_argument("--layers", type=int, default=8)
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.mode == "mlir":
        sys.stdout.write(emit_mlir(args.layers, args.width, args.batch))
        return
    import numpy as np
    rng = np.random.default_rng(0)
    def uniform(*shape):
        return rng.uniform(-1, 1, shape).astype(np.float32)
    x, target = uniform(args.batch, args.width), uniform(args.batch, args.width)
    weights = [uniform(args.width, args.width) for _ in range(args.layers)]
    for run in range(args.repeat):
        start = time.perf_counter()
        numpy_step(np, x, target, weights)
        print(f"time: numpy run {run}: {(time.perf_counter() - start) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
