#!/usr/bin/env bash
# dist-run vs NumPy on one MLP training step (8 layers, width 1024, batch
# 512, f32: forward matmul + relu, MSE loss, backward, SGD). Prints the best
# of N runs of each (execution only: parsing and input generation excluded)
# and their ratio. Usage: bench/executor/run.sh [--repeat N] [generator flags]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${DISTIR_BUILD_DIR:-$here/../../build}
python=/usr/bin/python3  # Debian's python3-numpy (OpenBLAS through libblas.so.3)
repeat=5
if [ "${1:-}" = "--repeat" ]; then repeat=$2; shift 2; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$python" "$here/mlp_step.py" mlir "$@" > "$work/step.mlir"
"$build/bin/dist-run" "$work/step.mlir" --seed 1 --repeat "$repeat" --time \
  > "$work/dist-run.out" 2> "$work/dist-run.time"
"$python" "$here/mlp_step.py" numpy --repeat "$repeat" "$@" > "$work/numpy.time"

best() { sed -n 's/.*: \([0-9.]*\) ms$/\1/p' "$1" | sort -g | head -1; }
dist=$(best "$work/dist-run.time")
numpy=$(best "$work/numpy.time")
echo "MLP training step ($*${*:+ }defaults: 8 layers x 1024, batch 512, f32), best of $repeat"
printf '%-10s %12s\n' engine "ms/step"
printf '%-10s %12.1f\n' dist-run "$dist" numpy "$numpy"
awk -v d="$dist" -v n="$numpy" 'BEGIN { printf "ratio dist-run / numpy: %.2f\n", d / n }'
grep '^loss' "$work/dist-run.out" | sed 's/^/dist-run /'
