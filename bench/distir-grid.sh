#!/usr/bin/env bash
# DistIR's default MLP grid search (REFERENCE.md; microsoft/dist-ir's
# mlp_grid_search): mlp-small 16 x 8192, mlp-medium 64 x 16384, mlp-large
# 96 x 32768 (f32, SGD, MSE loss), batch sizes 2^0..2^15, world sizes 1, 2, 4,
# every power-of-two (dp, tp, pp) with product = world size, microbatches
# 2..128 when pp > 1 (DistIR skips a microbatch count larger than a replica's
# batch, and dp larger than the batch): 1,263 configurations. DistIR took
# 621 s for them on this 2-core machine (process pool, every configuration
# rebuilt and simulated from scratch).
#
# The cluster is one DGX A100 node (world sizes 1..4 fit in it). Two runs:
#   1. every one of the 1,263 configurations simulated, as DistIR does: the
#      DGX A100 figures with unbounded memory (bench/search/dgx-a100-unbounded.json)
#      and --simulate-all (no pruning of any kind);
#   2. the question a user asks, on the real 80 GB devices: the memory bound
#      prunes what cannot fit, the time bound skips what cannot be the best.
# Prints the wall and CPU time of each (and the load average: the machine is
# shared, so wall time depends on what else runs) and the best configuration
# per world size.
#   bash bench/distir-grid.sh          # from anywhere; THREADS=1 to pin threads
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
search=${DIST_SEARCH:-$root/build/bin/dist-search}
threads=${THREADS:-0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

batches=$(python3 -c "print(','.join(str(2**k) for k in range(16)))")
grid=(mlp-small mlp-medium mlp-large --devices 1,2,4 --global-batch "$batches"
      --microbatches 2,4,8,16,32,64,128 --schedules 1f1b --power-of-two
      --optimizer sgd --top 1 --threads "$threads" --progress=false)

run() { # name cluster extra-args...
  local name=$1 cluster=$2
  shift 2
  local status=0
  /usr/bin/time -f "%e %U %S" -o "$work/time" \
    "$search" "${grid[@]}" --cluster "$cluster" "$@" --csv "$work/$name.csv" \
    > "$work/$name.txt" || status=$?
  # Exit status 2: some scenario has no configuration that fits (mlp-large
  # in f32 needs more than 4 x 80 GB); anything else is a failure.
  if [ "$status" -ne 0 ] && [ "$status" -ne 2 ]; then
    cat "$work/$name.txt"; exit "$status"
  fi
  python3 - "$work/$name.txt" "$work/time" "$name" <<'PY'
import os, re, sys
text = open(sys.argv[1]).read()
wall, user, system = (float(x) for x in open(sys.argv[2]).read().split()[-3:])
totals = [0] * 5
for line in re.findall(r"configurations: (.*)", text):
    numbers = [int(n) for n in re.findall(r"(\d+) (?:considered|invalid|pruned by the memory|pruned by the time|simulated)", line)]
    totals = [a + b for a, b in zip(totals, numbers)]
considered, invalid, memory, time, simulated = totals
print("%s: %.2f s wall, %.2f s CPU (load average %.1f) for %d configurations "
      "(%d considered, %d invalid, %d pruned by memory, %d pruned by time, "
      "%d simulated): %.0fx faster than DistIR's 621 s"
      % (sys.argv[3], wall, user + system, os.getloadavg()[0],
         considered - invalid, considered, invalid, memory, time, simulated,
         621 / wall))
PY
  python3 "$root/bench/search/best.py" "$work/$name.csv"
}

run "all 1263 simulated (unbounded memory)" "$root/bench/search/dgx-a100-unbounded.json" --simulate-all
run "memory-aware search on dgx-a100 (80 GiB)" dgx-a100
