#!/usr/bin/env bash
# The main job on bundled examples: installs what is missing, builds, then
#  1. parses, verifies and infers the shapes of a hand-placed program;
#  2. generates a small GPT, differentiates it into an Adam training step and
#     runs one step on the CPU, printing the loss;
#  3. parallelizes that step (dp=2 tp=2 pp=2, 1F1B) and proves by execution
#     that it computes what the original computes;
#  4. parallelizes a 1.3B-parameter GPT the same way and simulates one step on
#     a DGX A100 node, showing the report;
#  5. searches every configuration of that model on the node;
#  6. does it all again from Python (examples/walkthrough.py): a PyTorch
#     model imported, trained, parallelized, checked, simulated, drawn and
#     searched with the distir package.
source "$(dirname "$0")/lib.sh"
distir_install_deps
distir_build_quietly
BIN="$BUILD_DIR/bin"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
step() { printf '\n== %s\n' "$*"; }

step "1. A hand-placed two-stage MLP, verified, with its shapes inferred"
"$BIN/dist-opt" "$DISTIR_ROOT/examples/two-stage-mlp.mlir" --dist-infer-shapes

step "2. A small GPT (2 layers, hidden 64, 4 heads, seq 32, vocab 256, batch 8):" \
     "generate -> dist-autodiff (Adam) -> one training step in dist-run"
"$BIN/dist-gen" gpt --layers 2 --hidden 64 --heads 4 --seq 32 --vocab 256 --batch 8 \
  -o "$WORK/gpt.mlir"
"$BIN/dist-opt" "$WORK/gpt.mlir" --dist-autodiff=optimizer=adam -o "$WORK/gpt.train.mlir"
"$BIN/dist-run" "$WORK/gpt.train.mlir" --seed 1 > "$WORK/step.txt"
head -n 3 "$WORK/step.txt"

step "3. The same step on 8 devices (dp=2 tp=2 pp=2, 2 microbatches, 1F1B)," \
     "checked against the unsplit step on the same inputs"
"$BIN/dist-opt" "$WORK/gpt.train.mlir" \
  --dist-parallelize="dp=2 tp=2 pp=2 microbatches=2 schedule=1f1b" -o "$WORK/gpt.dist.mlir"
"$BIN/dist-run" "$WORK/gpt.dist.mlir" --reference "$WORK/gpt.train.mlir" --seed 1 \
  > "$WORK/check.txt"
tail -n 1 "$WORK/check.txt"

step "4. A 1.3B-parameter GPT (24 layers, hidden 2048, seq 2048, bf16, batch 64)" \
     "on one DGX A100 node (dp=2 tp=2 pp=2, 8 microbatches, 1F1B): simulated step"
"$BIN/dist-gen" gpt --layers 24 --hidden 2048 --heads 16 --seq 2048 --vocab 51200 \
    --batch 64 --dtype bf16 \
  | "$BIN/dist-opt" --dist-autodiff=optimizer=adam \
      --dist-parallelize="dp=2 tp=2 pp=2 microbatches=8 schedule=1f1b" -o "$WORK/gpt13.mlir"
"$BIN/dist-sim" "$WORK/gpt13.mlir" --cluster dgx-a100:nodes=1 --samples-per-step 64 \
  --report "$WORK/report.json" --trace "$WORK/trace.json"

step "5. Every configuration of that model on the node, ranked"
"$BIN/dist-search" gpt:layers=24,hidden=2048,heads=16,seq=2048,vocab=51200,dtype=bf16 \
  --cluster dgx-a100:nodes=1 --global-batch 64 --top 5

step "6. The same from Python (examples/walkthrough.py, the distir package)"
PYTHONPATH="$BUILD_DIR/python" /usr/bin/python3 "$DISTIR_ROOT/examples/walkthrough.py" \
  "$WORK/python"
