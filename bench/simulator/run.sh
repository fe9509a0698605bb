#!/usr/bin/env bash
# Simulation speed of dist-sim (issue 5, item 8). Prints one table row per
# workload: tasks, device classes, parse+lowering time, simulation time (mean
# of --repeat runs, after the program is built) and simulated ops per second.
#
# The programs are the real ones: dist-gen -> dist-autodiff -> dist-parallelize
# (written as MLIR bytecode so that parsing stays cheap):
#   DistIR's mlp-small (16 layers x 8192, SGD) at dp2 tp2 pp2 mb4 and
#   dp2 tp2 pp4 mb16 (batch 1024), and the GPT-3 175B configuration of the
#   transforms benchmark (96 layers, hidden 12288, 96 heads, seq 2048,
#   vocab 51200, Adam, dp8 tp8 pp16 mb64 on 1024 GPUs) with micro-batches of
#   one sequence (global batch 512): without activation recomputation, which
#   distir does not model yet, micro-batches of 3 (batch 1536) exceed 80 GB.
#   bash bench/simulator/run.sh            # from the repository root
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${DIST_BIN:-$root/build/bin}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# row <name> <cluster> <repeat> <optimizer> <parallelize options> <dist-gen args...>
row() {
  local name=$1 cluster=$2 repeat=$3 optimizer=$4 parallel=$5
  shift 5
  "$bin/dist-gen" "$@" \
    | "$bin/dist-opt" --dist-autodiff=optimizer="$optimizer" \
        --dist-parallelize="$parallel" --emit-bytecode -o "$work/p.mlirbc"
  local out
  out=$("$bin/dist-sim" "$work/p.mlirbc" --cluster "$cluster" --timing \
          --repeat "$repeat" --top 0)
  python3 - "$name" "$cluster" <<PY
import re, sys
out = """$out"""
name, cluster = sys.argv[1], sys.argv[2]
m = re.search(r"lowering: (\S+) s, simulation: (\S+) s for (\d+) tasks", out)
lower, simulate, tasks = float(m.group(1)), float(m.group(2)), int(m.group(3))
classes = re.search(r"\((\d+) classes", out).group(1)
step = re.search(r"step time:\s+(\S+) ms", out).group(1)
print("%-30s %-18s %9d %8s %10.4f %11.6f %8.2f %12s" % (
    name, cluster, tasks, classes, lower, simulate, tasks / simulate / 1e6, step))
PY
}

printf "%-30s %-18s %9s %8s %10s %11s %8s %12s\n" workload cluster tasks classes \
  "lower s" "simulate s" "Mops/s" "step ms"
mlp_small=(mlp --layers 16 --hidden 8192 --batch 1024)
row "mlp-small dp2 tp2 pp2 mb4" dgx-a100 2000 sgd \
  "dp=2 tp=2 pp=2 microbatches=4 schedule=1f1b" "${mlp_small[@]}"
row "mlp-small dp2 tp2 pp4 mb16" dgx-a100:nodes=2 500 sgd \
  "dp=2 tp=2 pp=4 microbatches=16 schedule=1f1b" "${mlp_small[@]}"
row "gpt-175b dp8 tp8 pp16 mb64" dgx-a100:nodes=128 3 adam \
  "dp=8 tp=8 pp=16 microbatches=64 schedule=1f1b" \
  gpt --layers 96 --hidden 12288 --heads 96 --seq 2048 --vocab 51200 --batch 512 \
      --dtype bf16
