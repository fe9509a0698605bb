#!/usr/bin/env bash
# Simulation speed of dist-sim (issue 5, item 8). Prints one table row per
# workload: tasks, device classes, parse+lowering time, simulation time (mean
# of --repeat runs, after the program is built) and simulated ops per second.
#
# The placed programs come from gen_placed.py (dp x pp x tp, Megatron tensor
# parallelism, 1F1B pipeline, DistIR's mlp-small = 16 layers x 8192), the
# same shape of program dist-parallelize produces.
#   bash bench/simulator/run.sh            # from the repository root
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
sim=${DIST_SIM:-$root/build/bin/dist-sim}
gen="python3 $root/bench/simulator/gen_placed.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

row() { # name cluster repeat generator-args...
  local name=$1 cluster=$2 repeat=$3
  shift 3
  $gen "$@" > "$work/$name.mlir"
  local start end out
  start=$(date +%s.%N)
  out=$("$sim" "$work/$name.mlir" --cluster "$cluster" --timing --repeat "$repeat" --top 0)
  end=$(date +%s.%N)
  python3 - "$name" "$cluster" "$start" "$end" <<PY
import re, sys
out = """$out"""
name, cluster, start, end = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
m = re.search(r"lowering: (\S+) s, simulation: (\S+) s for (\d+) tasks", out)
lower, simulate, tasks = float(m.group(1)), float(m.group(2)), int(m.group(3))
classes = re.search(r"\((\d+) classes", out).group(1)
step = re.search(r"step time:\s+(\S+) ms", out).group(1)
print("%-34s %-18s %9d %8s %11.4f %11.6f %12.2f %12s" % (
    name, cluster, tasks, classes, lower, simulate, tasks / simulate / 1e6, step))
PY
}

printf "%-34s %-18s %9s %8s %11s %11s %12s %12s\n" workload cluster tasks classes \
  "lower s" "simulate s" "Mops/s" "step ms"
row "mlp-small dp2 tp2 pp2 mb4" dgx-a100 2000 \
  mlp --layers 16 --width 8192 --batch 1024 --dp 2 --tp 2 --pp 2 --microbatches 4
row "mlp-small dp2 tp2 pp4 mb16" dgx-a100:nodes=2 500 \
  mlp --layers 16 --width 8192 --batch 1024 --dp 2 --tp 2 --pp 4 --microbatches 16
row "gpt-175b dp8 tp8 pp16 mb64" dgx-a100:nodes=128 3 \
  gpt --layers 96 --hidden 12288 --heads 96 --seq 2048 --batch 512 --dp 8 --tp 8 \
      --pp 16 --microbatches 64
