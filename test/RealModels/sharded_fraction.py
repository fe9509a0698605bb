#!/usr/bin/python3
"""Fraction of parameter bytes a parallel program shards over a mesh axis.

    sharded_fraction.py UNSPLIT.mlir SPLIT.mlir [AXIS]   # AXIS: tp by default

Reads the parameters (dist.role = "parameter") of the unsplit program's
signature with their global shapes, and of the split program's signature
their dist.sharding; a parameter counts as sharded when one of its
dimensions is split over AXIS. Prints the sharded parameters and one line
`sharded: N of M parameter bytes (P %)`. Needs only the Python standard
library.
"""
import re
import sys

ARG = re.compile(r'%arg\d+: tensor<(.*?)>\s*\{([^{}]*)\}')
BYTES = {"f64": 8, "f32": 4, "f16": 2, "bf16": 2, "i64": 8, "i32": 4, "i1": 1}


def parameters(path):
    """name -> (type text, attribute text) of the parameter arguments."""
    with open(path) as f:
        text = f.read()
    header = text[text.index("func.func"):]
    header = header[:header.index("{\n")]
    result = {}
    for tensor, attrs in ARG.findall(header):
        name = re.search(r'dist\.name = "([^"]*)"', attrs)
        if name and 'dist.role = "parameter"' in attrs:
            result[name.group(1)] = (tensor, attrs)
    return result


def byte_size(tensor):
    parts = tensor.split(",")[0].split("x")
    count = 1
    for dim in parts[:-1]:
        count *= int(dim)
    return count * BYTES[parts[-1]]


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    axis = argv[3] if len(argv) == 4 else "tp"
    unsplit, split = parameters(argv[1]), parameters(argv[2])
    total = sharded = 0
    for name, (tensor, _) in sorted(unsplit.items()):
        size = byte_size(tensor)
        total += size
        attrs = split.get(name, ("", ""))[1]
        layout = re.search(r"dist\.sharding = #dist\.sharding<@\w+, (\[.*?\]\])", attrs)
        if layout and f'"{axis}"' in layout.group(1):
            sharded += size
            print(f"{name}: {layout.group(1)}")
    percent = 100.0 * sharded / total if total else 0.0
    print(f"sharded: {sharded} of {total} parameter bytes ({percent:.1f} %)")


if __name__ == "__main__":
    main(sys.argv)
