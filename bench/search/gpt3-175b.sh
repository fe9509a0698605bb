#!/usr/bin/env bash
# Full search for GPT-3 175B (96 layers, hidden 12288, 96 heads, seq 2048,
# vocab 51200, bf16, Adam) with a global batch of 1536 on 128 DGX A100 nodes
# (1024 GPUs): every (dp, tp, pp) with dp tp pp = 1024, every microbatch
# count dividing a replica's batch, gpipe and 1f1b. Target: under 60 s.
#   bash bench/search/gpt3-175b.sh     # THREADS=1 to pin threads
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
search=${DIST_SEARCH:-$root/build/bin/dist-search}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s.%N)
"$search" gpt3-175b --cluster dgx-a100:nodes=128 --global-batch 1536 --top 5 \
  --threads "${THREADS:-0}" --progress=false --csv "$work/gpt.csv" > "$work/gpt.txt"
end=$(date +%s.%N)
grep -v '^ *\$' "$work/gpt.txt" | cut -c1-140
python3 -c "import sys; print('wall time: %.1f s' % (float(sys.argv[2]) - float(sys.argv[1])))" "$start" "$end"
