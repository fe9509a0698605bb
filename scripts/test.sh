#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (lit and GoogleTest,
# both through ctest). Exits non-zero on any failure. The build compiles
# distir's code with assertions and LLVM_DEBUG (build-asserts/, see lib.sh),
# so the suite checks internal invariants and the `REQUIRES: asserts` tests run.
DISTIR_ASSERTIONS=ON
source "$(dirname "$0")/lib.sh"
distir_install_deps
distir_build
cd "$BUILD_DIR"
ctest --output-on-failure -j"${DISTIR_JOBS:-$(nproc)}" "$@"
