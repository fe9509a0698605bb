#!/usr/bin/env bash
# The main job on bundled examples: installs what is missing, builds, then
#  1. parses, verifies and infers the shapes of a hand-placed program;
#  2. generates a small GPT, differentiates it into an Adam training step and
#     runs one step on the CPU, printing the loss.
source "$(dirname "$0")/lib.sh"
distir_install_deps
distir_build_quietly
BIN="$BUILD_DIR/bin"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "== 1. A hand-placed two-stage MLP, verified, with its shapes inferred"
"$BIN/dist-opt" "$DISTIR_ROOT/examples/two-stage-mlp.mlir" --dist-infer-shapes

echo
echo "== 2. A small GPT (2 layers, hidden 64, 4 heads, seq 32, vocab 256, batch 4):"
echo "==    generate -> dist-autodiff (Adam) -> one training step in dist-run"
"$BIN/dist-gen" gpt --layers 2 --hidden 64 --heads 4 --seq 32 --vocab 256 --batch 4 \
  -o "$WORK/gpt.mlir"
"$BIN/dist-opt" "$WORK/gpt.mlir" --dist-autodiff=optimizer=adam -o "$WORK/gpt.train.mlir"
"$BIN/dist-run" "$WORK/gpt.train.mlir" --seed 1 | head -n 4
