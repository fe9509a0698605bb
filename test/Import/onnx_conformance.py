#!/usr/bin/python3
"""Runs ONNX's own node tests through dist-translate and dist-run.

Each test of libonnx-testdata's node suite is a model.onnx plus input and
expected output TensorProtos. For every test whose ops dist-translate
supports, this imports the model (giving it the test's input values, which
the importer uses where the dialect needs compile-time values such as a
Reshape shape), runs the imported program with dist-run on the same inputs
and compares each result with ONNX's expected output at ONNX's default
tolerance (rtol=1e-3, atol=1e-7, NaN equal to NaN).

Prints one row per op (passed / failed / unsupported) and exits non-zero if
any test of a supported op fails. A test is "unsupported" when it uses an op
the importer does not map, or when the importer rejects it with an explicit
"not supported" message (an element type distir lacks, training-mode
Dropout, ...); any other import error, run error or mismatch is a failure.
"""

import argparse
import collections
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

DEFAULT_DATA = "/usr/share/libonnx-testdata/data/node"
RTOL, ATOL = 1e-3, 1e-7

# Import errors that state a limitation of distir rather than a bug.
UNSUPPORTED_PATTERN = re.compile(
    r"not supported|unsupported ONNX op|does not support|older than distir "
    r"supports|newer than distir supports|is not a tensor")

# Tests whose inputs dist-run cannot be given: .npy has no bfloat16 dtype
# and dist-run takes each argument in its exact element type.
INPUT_LIMITATIONS = {
    onnx.TensorProto.BFLOAT16: "dist-run reads .npy inputs, which have no "
                               "bfloat16 dtype",
}

# ONNX 1.12's expected outputs that distir deliberately does not reproduce,
# with the oracle used instead (so the test still checks something real).
# cast.py of ONNX 1.12 makes bfloat16 by dropping the low 16 bits of the
# float32 value; distir rounds to nearest even, as PyTorch, TensorFlow and
# hardware do and as later ONNX releases specify (onnx/onnx#4237).
ROUND_TO_BFLOAT16 = "test_cast_FLOAT_to_BFLOAT16"

Result = collections.namedtuple("Result", "test ops status detail")


def read_tensor(path):
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    return tensor


def bfloat16_bits_to_float(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def round_to_bfloat16(array):
    """float32 -> bfloat16 (as float32 values), round to nearest even."""
    bits = array.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    result = bfloat16_bits_to_float(rounded)
    return np.where(np.isnan(array), np.float32("nan"), result)


def expected_array(tensor, elem_type):
    """The expected output as numpy; ONNX 1.12 stores bfloat16 outputs as
    UINT16 tensors of raw bits."""
    array = numpy_helper.to_array(tensor)
    if elem_type == onnx.TensorProto.BFLOAT16 and array.dtype == np.uint16:
        return bfloat16_bits_to_float(array)
    return array


def compare(actual, expected):
    """None if actual matches expected, else a one-line reason."""
    if actual.shape != expected.shape:
        return f"shape {list(actual.shape)} != expected {list(expected.shape)}"
    if expected.dtype.kind in "biu" and actual.dtype.kind not in "biu":
        return f"dtype {actual.dtype} where ONNX gives {expected.dtype}"
    a = actual.astype(np.float64)
    e = expected.astype(np.float64)
    close = np.isclose(a, e, rtol=RTOL, atol=ATOL, equal_nan=True)
    if close.all():
        return None
    bad = np.argwhere(~close)
    index = tuple(bad[0])
    return (f"{len(bad)} of {e.size} elements differ, e.g. at {list(index)}: "
            f"{a[index]!r} vs expected {e[index]!r}")


def argument_names(mlir_text):
    """dist.name of each argument of the imported function, in order."""
    header = mlir_text[mlir_text.index("func.func"):]
    header = header[:header.index("->")] if "->" in header else header
    return re.findall(r'dist\.name = "([^"]*)"', header)


def run_test(test_dir, tools, scratch):
    name = os.path.basename(test_dir)
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    ops = sorted({(n.domain + "." if n.domain not in ("", "ai.onnx") else "")
                  + n.op_type for n in model.graph.node})
    key = "+".join(ops) if ops else "(no op)"
    missing = [op for op in ops if op not in tools.supported_ops]
    if missing:
        return Result(name, key, "unsupported", "op " + ", ".join(missing))

    initializers = {t.name for t in model.graph.initializer}
    graph_inputs = [i for i in model.graph.input if i.name not in initializers]
    tensor_inputs = {i.name for i in graph_inputs if i.type.HasField("tensor_type")}
    input_types = {i.name: i.type.tensor_type.elem_type for i in graph_inputs}
    output_types = {o.name: o.type.tensor_type.elem_type
                    for o in model.graph.output}
    for input_name, elem_type in input_types.items():
        if elem_type in INPUT_LIMITATIONS:
            return Result(name, key, "unsupported",
                          f"input '{input_name}': "
                          f"{INPUT_LIMITATIONS[elem_type]}")

    data_sets = sorted(d for d in os.listdir(test_dir)
                       if d.startswith("test_data_set"))
    work = tempfile.mkdtemp(prefix=name + ".", dir=scratch)
    try:
        for data_set in data_sets:
            data_dir = os.path.join(test_dir, data_set)
            files = sorted(os.listdir(data_dir))
            inputs = [read_tensor(os.path.join(data_dir, f))
                      for f in files if f.startswith("input_")]
            outputs = [read_tensor(os.path.join(data_dir, f))
                       for f in files if f.startswith("output_")]
            # Tensors of the test data may be unnamed: they follow the
            # graph's input and output order.
            input_names = [i.name for i in graph_inputs]
            output_names = [o.name for o in model.graph.output]

            translate = [tools.translate, "--import-onnx",
                         os.path.join(test_dir, "model.onnx")]
            npy_of = {}
            for index, tensor in enumerate(inputs):
                input_name = tensor.name or input_names[index]
                if input_name not in tensor_inputs:
                    continue  # A sequence or an optional: the import fails.
                pb = os.path.join(work, f"input_{index}.pb")
                with open(pb, "wb") as f:
                    f.write(tensor.SerializeToString())
                translate.append(f"--input-value={input_name}={pb}")
                try:
                    array = numpy_helper.to_array(tensor)
                except ValueError:
                    continue  # Not a tensor (a sequence or an optional).
                npy = os.path.join(work, f"input_{index}.npy")
                np.save(npy, array)
                npy_of[input_name] = npy
            program = os.path.join(work, "model.mlir")
            translate += ["-o", program]
            imported = subprocess.run(translate, capture_output=True, text=True)
            if imported.returncode != 0:
                message = imported.stderr.strip().splitlines()
                message = message[-1] if message else "no message"
                if imported.returncode == 1 and UNSUPPORTED_PATTERN.search(message):
                    return Result(name, key, "unsupported", message)
                return Result(name, key, "failed",
                              f"import (exit {imported.returncode}): {message}")

            with open(program) as f:
                arguments = argument_names(f.read())
            out_dir = os.path.join(work, "out." + data_set)
            run = [tools.run, program, "--output-dir", out_dir]
            for argument in arguments:
                if argument not in npy_of:
                    return Result(name, key, "failed",
                                  f"imported argument '{argument}' has no "
                                  "test input")
                run.append(f"--input={argument}={npy_of[argument]}")
            executed = subprocess.run(run, capture_output=True, text=True)
            if executed.returncode != 0:
                message = executed.stderr.strip().splitlines()
                message = message[-1] if message else "no message"
                return Result(name, key, "failed",
                              f"dist-run (exit {executed.returncode}): {message}")

            for index, tensor in enumerate(outputs):
                output_name = tensor.name or output_names[index]
                expected = expected_array(tensor, output_types.get(output_name))
                if name == ROUND_TO_BFLOAT16:
                    expected = round_to_bfloat16(numpy_helper.to_array(inputs[0]))
                path = os.path.join(out_dir, output_name + ".npy")
                if not os.path.exists(path):
                    return Result(name, key, "failed",
                                  f"no result named '{output_name}'")
                problem = compare(np.load(path), expected)
                if problem:
                    return Result(name, key, "failed",
                                  f"{data_set} output '{output_name}': {problem}")
        return Result(name, key, "passed", "")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dist-translate", required=True)
    parser.add_argument("--dist-run", required=True)
    parser.add_argument("--data", default=DEFAULT_DATA,
                        help="folder of ONNX node tests (default: %(default)s)")
    parser.add_argument("--filter", default="",
                        help="only tests whose name matches this regex")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--verbose", action="store_true",
                        help="list every test and every op group, not only "
                             "failures and the supported ops")
    args = parser.parse_args()

    if not os.path.isdir(args.data):
        print(f"ONNX test data not found at {args.data} "
              "(Debian package libonnx-testdata)", file=sys.stderr)
        return 1
    listed = subprocess.run([args.dist_translate, "--list-onnx-ops"],
                            capture_output=True, text=True, check=True)
    tools = argparse.Namespace(translate=args.dist_translate, run=args.dist_run,
                               supported_ops=set(listed.stdout.split()))
    pattern = re.compile(args.filter)
    tests = [os.path.join(args.data, t) for t in sorted(os.listdir(args.data))
             if pattern.search(t) and
             os.path.exists(os.path.join(args.data, t, "model.onnx"))]

    scratch = tempfile.mkdtemp(prefix="onnx-conformance.")
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(
                lambda t: run_test(t, tools, scratch), tests))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    table = collections.defaultdict(collections.Counter)
    for result in results:
        table[result.ops][result.status] += 1
    # Rows of supported ops first, then the unsupported ones compactly.
    supported_rows = sorted(k for k, v in table.items()
                            if v["passed"] or v["failed"])
    width = max([len(k) for k in supported_rows] + [28])
    print(f"{'op':<{width}}  passed  failed  unsupported")
    totals = collections.Counter()
    for key in supported_rows:
        counts = table[key]
        totals.update(counts)
        print(f"{key:<{width}}  {counts['passed']:6d}  {counts['failed']:6d}"
              f"  {counts['unsupported']:11d}")
    unsupported_only = sorted(k for k in table if k not in supported_rows)
    other = collections.Counter()
    for key in unsupported_only:
        other.update(table[key])
        if args.verbose:
            print(f"{key[:width]:<{width}}  {0:6d}  {0:6d}  "
                  f"{table[key]['unsupported']:11d}")
    totals.update(other)
    if not args.verbose:
        label = f"({len(unsupported_only)} unsupported op groups)"
        print(f"{label:<{width}}  {0:6d}  {0:6d}  {other['unsupported']:11d}")
    print(f"{'total':<{width}}  {totals['passed']:6d}  {totals['failed']:6d}"
          f"  {totals['unsupported']:11d}")

    for result in results:
        if result.status == "failed":
            print(f"FAILED {result.test} [{result.ops}]: {result.detail}")
        elif result.test == ROUND_TO_BFLOAT16 and result.status == "passed":
            print(f"NOTE {result.test}: checked against round-to-nearest-even "
                  "instead of ONNX 1.12's truncating test data")
        elif args.verbose or (result.status == "unsupported" and
                              result.ops in supported_rows):
            print(f"{result.status.upper()} {result.test} [{result.ops}]: "
                  f"{result.detail}")
    return 1 if totals["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
