#!/usr/bin/env bash
# Speed and memory of sharding propagation and partitioning (issue 4, item 7:
# the parallelization of GPT-3 175B must take seconds, not minutes). One table
# row per workload: ops of the training step, ops after partitioning, time of
# each pass (dist-opt --mlir-timing, verifier off so that only the pass is
# timed), and the peak memory of the whole dist-opt run.
#
# The op count after partitioning does not depend on the mesh size (placement
# is a device set): compare the dp=8 and dp=64 rows.
#   bash bench/sharding/run.sh            # from the repository root
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${DIST_BIN:-$root/build/bin}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# train <name> <optimizer> <dist-gen args...>: the unplaced training step.
train() {
  local name=$1 optimizer=$2
  shift 2
  "$bin/dist-gen" "$@" | "$bin/dist-opt" --dist-autodiff=optimizer="$optimizer" \
    -o "$work/$name.train.mlir"
}

# row <label> <train name> <mesh shape> <mesh axes> <wrapper passes...>
row() {
  local label=$1 name=$2 shape=$3 axes=$4
  shift 4
  sed -e "1a dist.mesh @world shape = [$shape] axes = [$axes]" \
    "$work/$name.train.mlir" > "$work/in.mlir"
  /usr/bin/time -f "%M" -o "$work/rss" "$bin/dist-opt" "$work/in.mlir" \
    --verify-each=0 --mlir-timing "$@" --dist-propagate-sharding --dist-partition \
    -o "$work/out.mlir" 2> "$work/timing"
  python3 - "$label" "$work/in.mlir" "$work/out.mlir" "$work/timing" "$work/rss" <<'PY'
import re, sys
label, src, out, timing, rss = sys.argv[1:]
def ops(path):
    # One op per line that assigns or returns (the printer's layout).
    return sum(1 for l in open(path) if re.match(r"\s+(%\S+ = |return)", l))
def collectives(path):
    return sum(1 for l in open(path) if re.search(r"= dist\.(all_reduce|all_gather|reduce_scatter|all_to_all|send) ", l))
t = open(timing).read()
def seconds(name):
    m = re.search(r"(\d+\.\d+) \(\s*[\d.]+%\)\s+" + name, t)
    return float(m.group(1)) if m else 0.0
annotate = seconds("DistDataParallel") + seconds("DistTensorParallel")
print("%-38s %8d %8d %6d %9.3f %9.3f %9.3f %8.0f" % (
    label, ops(src), ops(out), collectives(out), annotate,
    seconds("DistPropagateSharding"), seconds("DistPartition"),
    int(open(rss).read().split()[-1]) / 1024))
PY
}

printf "%-38s %8s %8s %6s %9s %9s %9s %8s\n" workload "ops in" "ops out" "colls" \
  "annot s" "prop s" "part s" "RSS MB"
train gpt175b adam gpt --layers 96 --hidden 12288 --heads 96 --seq 2048 --vocab 51200 --batch 512
row "gpt-175b adam dp=8 tp=8" gpt175b "8, 8" '"dp", "tp"' \
  --dist-data-parallel=annotate-only --dist-tensor-parallel=annotate-only
row "gpt-175b adam dp=64 tp=8 (512 dev)" gpt175b "64, 8" '"dp", "tp"' \
  --dist-data-parallel=annotate-only --dist-tensor-parallel=annotate-only
row "gpt-175b adam dp=512" gpt175b "512" '"dp"' --dist-data-parallel=annotate-only
train mlplarge sgd mlp --layers 96 --hidden 32768 --batch 1024
row "mlp-large sgd dp=4 tp=2" mlplarge "4, 2" '"dp", "tp"' \
  --dist-data-parallel=annotate-only --dist-tensor-parallel=annotate-only
# As many ops as GPT-175B cut into 64 microbatches (96 x 64 layers).
train gptdeep sgd gpt --layers 6144 --hidden 64 --heads 8 --seq 16 --vocab 128 --batch 64
row "gpt 6144 layers sgd dp=8 tp=8" gptdeep "8, 8" '"dp", "tp"' \
  --dist-data-parallel=annotate-only --dist-tensor-parallel=annotate-only
