#!/usr/bin/env python3
"""Writes fan-in scaled parameters of a dist program as .npy files.

dist-run draws missing inputs uniformly from [-1, 1). Through a deep MLP such
weights grow the activations about 3x per layer, so gradients reach 1e7 and
float32 re-association (microbatch sums, split matmuls) exceeds any
element-wise tolerance on elements that cancel. Real training initialises
weights with a 1/sqrt(fan_in) scale, which keeps values O(1); this script
does the same (uniform in [-1, 1) / sqrt(fan_in), fan_in = dim 0 of a matrix,
a fixed LCG so no numpy is needed) for every argument with
dist.role = "parameter" and prints the --input options for dist-run.

usage: init-parameters.py program.mlir outdir
"""
import os
import re
import struct
import sys

ARG = re.compile(r'%arg\d+: tensor<([0-9x]*)x?(f32|f64)>\s*\{([^}]*)\}')


def write_npy(path, shape, values, dtype):
    descr = '<f4' if dtype == 'f32' else '<f8'
    dims = ', '.join(str(d) for d in shape) + (',' if len(shape) == 1 else '')
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    header += ' ' * (-(len(header) + 11) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode())
        f.write(struct.pack('<%d%s' % (len(values), 'f' if dtype == 'f32' else 'd'), *values))


def main():
    program, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    text = open(program).read()
    state = 12345
    options = []
    for dims, dtype, attrs in ARG.findall(text):
        if 'dist.role = "parameter"' not in attrs:
            continue
        name = re.search(r'dist.name = "([^"]*)"', attrs).group(1)
        shape = [int(d) for d in dims.split('x') if d] if dims else []
        count = 1
        for d in shape:
            count *= d
        fan_in = shape[0] if len(shape) >= 2 else 1
        scale = (6.0 / fan_in) ** 0.5
        values = []
        for _ in range(count):
            state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
            values.append(((state >> 40) / 2**24 * 2 - 1) * scale)
        path = os.path.join(outdir, name + '.npy')
        write_npy(path, shape, values, dtype)
        options.append('--input=%s=%s' % (name, path))
    print(' '.join(options))


if __name__ == '__main__':
    main()
