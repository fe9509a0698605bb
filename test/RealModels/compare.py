#!/usr/bin/python3
"""Compares what dist-run computed for a corpus model with torch's references.

    compare.py forward   MODEL_DIR RESULT_DIR   # output.npy and loss.npy
    compare.py gradients MODEL_DIR RESULT_DIR [PROGRAM.mlir]
                                                # loss.npy and every <init>.grad.npy

RESULT_DIR is a `dist-run --output-dir`. Needs only NumPy (no torch).
PROGRAM.mlir is the imported program: the importer names the parameters that
torch's exporter named itself (`onnx::MatMul_N`) after their scope and keeps
the ONNX name as `onnx.name`; dist-run writes gradients under the dist.name.

A tensor passes when |a - b| <= atol + rtol * |b| elementwise with rtol 1e-3
and atol = 1e-3 * max|b| + 1e-7 (scaled to the tensor's magnitude: a gradient whose
entries are all ~1e-6 is compared at that scale), b torch's value.

Gradients go through MODEL_DIR/map.json. Initializers and parameters form a
bipartite graph; each connected component is one of
  - one initializer, one parameter: grad(init) = perm(grad(param));
  - one initializer, several parameters (torch deduplicated equal values,
    e.g. LayerNorm weights of ones): grad(init) = sum of their gradients;
  - one parameter, several initializers (a tied weight read as W and as the
    folded W^T): grad(param) = sum of the inverse-permuted gradients.
Prints one line per comparison and `overall: PASS|FAIL`; exit status 1 on a
failure.
"""
import json
import os
import re
import sys

import numpy as np

RTOL = 1e-3
ATOL_SCALE = 1e-3
# ONNX's own test tolerance: a gradient that is zero in exact arithmetic (the
# key bias of attention: softmax ignores a constant shift) is f32 noise on
# both sides, ~1e-11 in torch and ~1e-9 here.
ATOL_FLOOR = 1e-7


def check(label, actual, expected, failures):
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if actual.shape != expected.shape:
        print(f"{label}: shape {list(actual.shape)} != torch's {list(expected.shape)} FAIL")
        failures.append(label)
        return
    atol = ATOL_SCALE * float(np.max(np.abs(expected), initial=0.0)) + ATOL_FLOOR
    err = np.abs(actual - expected)
    bad = int(np.sum(~(err <= atol + RTOL * np.abs(expected))))
    status = "ok" if bad == 0 else f"FAIL ({bad} of {expected.size} elements)"
    print(f"{label}: max_abs_err={float(np.max(err, initial=0.0)):.3e} atol={atol:.3e} {status}")
    if bad:
        failures.append(label)


def inverse(perm):
    return list(np.argsort(perm))


def components(entries):
    """Connected components of the initializer/parameter graph."""
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for e in entries:
        parent[find(("i", e["initializer"]))] = find(("p", e["parameter"]))
    groups = {}
    for e in entries:
        groups.setdefault(find(("p", e["parameter"])), []).append(e)
    return list(groups.values())


def compare_gate_blocks(init, pieces, model_dir, actual, failures):
    """An LSTM/GRU initializer [1, rows, ...]: the torch parameters' gradients,
    their gate blocks reordered, at their row offsets (map.json "gates")."""
    expected = np.zeros_like(actual)
    for e in pieces:
        grad = np.load(os.path.join(model_dir, "grads", e["parameter"] + ".npy"))
        blocks = np.split(grad, len(e["gates"]))
        reordered = np.concatenate([blocks[g] for g in e["gates"]])
        expected[0, e["offset"]:e["offset"] + reordered.shape[0]] = reordered
    check(f"{init} (= {' + '.join(e['parameter'] for e in pieces)})", actual, expected, failures)


def read_dist_names(program):
    """ONNX initializer name -> dist.name of the parameters renamed at import."""
    if not program:
        return {}
    with open(program) as f:
        text = f.read()
    return {onnx: dist for dist, onnx in
            re.findall(r'dist\.name = "([^"]*)"[^{}]*?onnx\.name = "([^"]*)"', text)}


def compare_gradients(model_dir, result_dir, program, failures):
    dist_names = read_dist_names(program)
    with open(os.path.join(model_dir, "map.json")) as f:
        mapping = json.load(f)
    for p in mapping["unmapped_parameters"]:
        print(f"{p}: no ONNX initializer holds this parameter FAIL")
        failures.append(p)

    def torch_grad(e):
        g = np.load(os.path.join(model_dir, "grads", e["parameter"] + ".npy"))
        return np.transpose(g, e["perm"]) if e["perm"] else g

    def grad_file(init):
        # dist-run --output-dir replaces what is not [A-Za-z0-9_.-] by '_'.
        name = dist_names.get(init, init)
        return re.sub(r"[^A-Za-z0-9_.-]", "_", name + ".grad") + ".npy"

    def dist_grad(init):
        return np.load(os.path.join(result_dir, grad_file(init)))

    compared = set()
    gated = [e for e in mapping["entries"] if "gates" in e]
    for init in sorted({e["initializer"] for e in gated}):
        compare_gate_blocks(init, [e for e in gated if e["initializer"] == init],
                            model_dir, dist_grad(init), failures)
        compared.add(grad_file(init))
    gathered = [e for e in mapping["entries"] if "gather" in e]
    for param in sorted({e["parameter"] for e in gathered}):
        pieces = [e for e in gathered if e["parameter"] == param]
        expected = np.load(os.path.join(model_dir, "grads", param + ".npy"))
        actual = np.zeros(expected.size)
        for e in pieces:
            np.add.at(actual, e["gather"], dist_grad(e["initializer"]).reshape(-1))
            compared.add(grad_file(e["initializer"]))
        check(f"{param} (gathered by {' + '.join(e['initializer'] for e in pieces)})",
              actual.reshape(expected.shape), expected, failures)
    simple = [e for e in mapping["entries"] if "gates" not in e and "gather" not in e]
    for group in components(simple):
        compared.update(grad_file(e["initializer"]) for e in group)
        inits = sorted({e["initializer"] for e in group})
        params = sorted({e["parameter"] for e in group})
        if len(inits) == 1:
            expected = sum(torch_grad(e) for e in group)
            label = inits[0] + (f" (= {' + '.join(params)})" if len(params) > 1 else "")
            check(label, dist_grad(inits[0]), expected, failures)
        elif len(params) == 1:
            actual = 0
            for e in group:
                g = dist_grad(e["initializer"])
                actual = actual + (np.transpose(g, inverse(e["perm"])) if e["perm"] else g)
            expected = np.load(os.path.join(model_dir, "grads", params[0] + ".npy"))
            check(f"{params[0]} (= {' + '.join(inits)})", actual, expected, failures)
        else:
            print(f"{inits} <-> {params}: several initializers and parameters FAIL")
            failures.append(str(inits))
    for extra in sorted(set(f for f in os.listdir(result_dir) if f.endswith(".grad.npy")) - compared):
        print(f"{extra}: a gradient of an initializer that holds no torch parameter FAIL")
        failures.append(extra)


def main(argv):
    if len(argv) not in (4, 5) or argv[1] not in ("forward", "gradients"):
        sys.exit(__doc__)
    mode, model_dir, result_dir = argv[1:4]
    program = argv[4] if len(argv) == 5 else None
    failures = []
    names = ["output", "loss"] if mode == "forward" else ["loss"]
    for name in names:
        check(name, np.load(os.path.join(result_dir, name + ".npy")),
              np.load(os.path.join(model_dir, name + ".npy")), failures)
    if mode == "gradients":
        compare_gradients(model_dir, result_dir, program, failures)
    print(f"overall: {'FAIL' if failures else 'PASS'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
