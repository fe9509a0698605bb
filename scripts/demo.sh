#!/usr/bin/env bash
# The main job on a bundled example: installs what is missing, builds, then
# parses, verifies, infers shapes and prints the placed example program.
source "$(dirname "$0")/lib.sh"
distir_install_deps
distir_build_quietly
BIN="$BUILD_DIR/bin"
EXAMPLE="$DISTIR_ROOT/examples/two-stage-mlp.mlir"

echo "== 1. Parse, verify and infer the shapes of a placed program ($EXAMPLE)"
"$BIN/dist-opt" "$EXAMPLE" --dist-infer-shapes
