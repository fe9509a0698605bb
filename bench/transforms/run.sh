#!/usr/bin/env bash
# Speed and memory of the parallelization transforms (issue 4, item 7): a GPT
# of 96 layers (hidden 12288, 96 heads, sequence 2048, vocabulary 51200)
# through dist-gen -> dist-autodiff (Adam) -> dist-parallelize dp=8 tp=8
# pp=16 microbatches=64 (1024 devices). Target: under 5 s and 4 GB.
#
# Global batch 1536 (Megatron-LM's 39B run, Narayanan et al. 2021): per dp
# rank 192 sequences, microbatches of 3. The batch only sets tensor shapes;
# the op count depends on layers, pp and microbatches.
#
# One row per step. wall = elapsed; cpu = user + sys, the figure that does not
# depend on how many other processes share the machine (the wall time of a
# loaded machine can be several times larger). RSS = peak resident memory of
# that process. dist-opt verifies the output (as users run it). Rows:
#   gen, autodiff              the unplaced training step (text)
#   parallelize -> bytecode    MLIR bytecode output (--emit-bytecode)
#   parallelize -> text        textual MLIR output
#   pipeline only dp=tp=1      the same without data/tensor parallelism: the
#                              op count does not grow with dp x tp = 64
# The total row adds gen + autodiff + parallelize -> bytecode.
#   bash bench/transforms/run.sh          # from the repository root
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${DIST_BIN:-$root/build/bin}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

layers=${LAYERS:-96}
gpt=(gpt --layers "$layers" --hidden 12288 --heads 96 --seq 2048 --vocab 51200 --batch 1536)
parallel="dp=8 tp=8 pp=16 microbatches=64 schedule=1f1b"

# step <label> <output file> <command...>: runs it under /usr/bin/time.
step() {
  local label=$1 out=$2
  shift 2
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@"
  read -r wall user sys rss < "$work/time"
  local ops=-
  if [[ -n $out ]]; then
    ops=$("$bin/dist-opt" "$out" --mlir-print-op-generic 2>/dev/null | grep -c '= "dist\.' || true)
  fi
  printf "%-30s %8.2f %8.2f %8.0f %9s\n" "$label" "$wall" \
    "$(echo "$user + $sys" | bc)" "$((rss / 1024))" "$ops"
  echo "$wall $(echo "$user + $sys" | bc) $rss" >> "$work/totals.$label"
}

printf "%-30s %8s %8s %8s %9s\n" step "wall s" "cpu s" "RSS MB" "ops"
step "gen" "$work/gpt.mlir" "$bin/dist-gen" "${gpt[@]}" -o "$work/gpt.mlir"
step "autodiff" "$work/train.mlir" "$bin/dist-opt" "$work/gpt.mlir" \
  --dist-autodiff=optimizer=adam -o "$work/train.mlir"
step "parallelize -> bytecode" "$work/par.mlirbc" "$bin/dist-opt" "$work/train.mlir" \
  --dist-parallelize="$parallel" --emit-bytecode -o "$work/par.mlirbc"
step "parallelize -> text" "" "$bin/dist-opt" "$work/train.mlir" \
  --dist-parallelize="$parallel" -o "$work/par.mlir"
step "pipeline only dp=tp=1" "$work/pp.mlirbc" "$bin/dist-opt" "$work/train.mlir" \
  --dist-parallelize="dp=1 tp=1 pp=16 microbatches=64" --emit-bytecode -o "$work/pp.mlirbc"
cat "$work/totals.gen" "$work/totals.autodiff" "$work/totals.parallelize -> bytecode" |
  awk '{w += $1; c += $2; if ($3 > m) m = $3} END {printf "%-30s %8.2f %8.2f %8.0f %9s\n", "total (gen+autodiff+bytecode)", w, c, m / 1024, "-"}'
echo "text output: $(du -m "$work/par.mlir" | cut -f1) MB, bytecode: $(du -m "$work/par.mlirbc" | cut -f1) MB"
