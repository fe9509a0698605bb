#!/usr/bin/python3
"""dist-run against PyTorch on the real-model corpus (test/RealModels).

For each model: one training step's forward and backward (loss and every
parameter gradient, no optimizer) timed in torch (eager, the corpus's own
module from export.py, eval mode) and in dist-run (the imported model.onnx
after dist-autodiff=optimizer=none, --repeat N --time, execution only), both
on one thread (torch.set_num_threads(1), OPENBLAS_NUM_THREADS=1), best of N.

    /usr/bin/python3 bench/executor/real_models.py [--bin build/bin] [--repeat 10] [MODEL...]

Needs Debian's python3-torch and python3-torchvision (run with /usr/bin/python3).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "test", "RealModels")
sys.path.insert(0, CORPUS)

import torch  # noqa: E402

import export  # noqa: E402  (the corpus's model builders)


def time_torch(name, repeat):
    torch.manual_seed(0)
    module, inputs = export.MODELS[name]()
    module.eval()
    args = tuple(inputs.values())
    best = float("inf")
    for _ in range(repeat):
        module.zero_grad()
        start = time.perf_counter()
        _, loss = module(*args)
        loss.backward()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def time_dist_run(name, bin_dir, repeat, work):
    model_dir = os.path.join(CORPUS, name)
    onnx = os.path.join(model_dir, "model.onnx")
    model = os.path.join(work, name + ".mlir")
    grad = os.path.join(work, name + ".grad.mlir")
    subprocess.run([os.path.join(bin_dir, "dist-translate"), "--import-onnx", onnx,
                    "-o", model], check=True)
    subprocess.run([os.path.join(bin_dir, "dist-opt"), model,
                    "--dist-autodiff=optimizer=none", "-o", grad], check=True)
    with open(os.path.join(model_dir, "map.json")) as f:
        names = json.load(f)["inputs"]
    inputs = [f"--input={n}={os.path.join(model_dir, n + '.npy')}" for n in names]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    run = subprocess.run([os.path.join(bin_dir, "dist-run"), grad, "--weights", onnx,
                          *inputs, "--repeat", str(repeat), "--time"],
                         check=True, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    times = [float(t) for t in re.findall(r"run \d+: ([0-9.]+) ms", run.stderr)]
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(HERE, "..", "..", "build", "bin"))
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("models", nargs="*", default=list(export.MODELS))
    args = parser.parse_args()
    torch.set_num_threads(1)
    print(f"{'model':14} {'torch ms':>9} {'dist-run ms':>12} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as work:
        for name in args.models:
            t = time_torch(name, args.repeat)
            d = time_dist_run(name, args.bin, args.repeat, work)
            print(f"{name:14} {t:9.3f} {d:12.3f} {d / t:6.2f}", flush=True)


if __name__ == "__main__":
    main()
