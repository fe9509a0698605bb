#!/usr/bin/env bash
# Full search for GPT-3 175B (96 layers, hidden 12288, 96 heads, seq 2048,
# vocab 51200, bf16, Adam) with a global batch of 1536 on 128 DGX A100 nodes
# (1024 GPUs): every (dp, tp, pp) with dp tp pp = 1024, every microbatch
# count dividing a replica's batch, gpipe and 1f1b. Target: under 60 s.
# Two runs: the plain step (--recompute none, the default), then with
# activation recomputation as a further dimension (none, full, selective; minimal is left out).
#   bash bench/search/gpt3-175b.sh     # THREADS=1 to pin threads
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
search=${DIST_SEARCH:-$root/build/bin/dist-search}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { # label extra-args...
  local label=$1
  shift
  echo "== $label"
  /usr/bin/time -f "%e %U %S" -o "$work/time" \
    "$search" gpt3-175b --cluster dgx-a100:nodes=128 --global-batch 1536 --top 5 \
    --threads "${THREADS:-0}" --progress=false --timing --csv "$work/gpt.csv" \
    "$@" > "$work/gpt.txt" 2> "$work/timing.txt"
  grep -v '^ *\$' "$work/gpt.txt" | cut -c1-150
  sed 's/^dist-search: /  /' "$work/timing.txt"
  python3 - "$work/time" <<'PY'
import os, sys
wall, user, system = (float(x) for x in open(sys.argv[1]).read().split()[-3:])
print("wall time: %.1f s, CPU time: %.1f s (load average %.1f)"
      % (wall, user + system, os.getloadavg()[0]))
PY
}
run "no recomputation"
run "recomputation searched" --recompute none,full,selective
