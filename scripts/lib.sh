# Shared by scripts/demo.sh and scripts/test.sh: install what is missing, then
# configure and build incrementally. Sourced, not run.
set -euo pipefail

DISTIR_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# demo.sh (and the benchmarks) use an optimized Release build in build/;
# test.sh sets DISTIR_ASSERTIONS=ON before sourcing this file and builds the
# same sources with assert() and LLVM_DEBUG on (-DDISTIR_ENABLE_ASSERTIONS=ON)
# into build-asserts/, so neither configuration rebuilds the other.
DISTIR_ASSERTIONS=${DISTIR_ASSERTIONS:-OFF}
if [ "$DISTIR_ASSERTIONS" = ON ]; then
  BUILD_DIR=${DISTIR_BUILD_DIR:-$DISTIR_ROOT/build-asserts}
else
  BUILD_DIR=${DISTIR_BUILD_DIR:-$DISTIR_ROOT/build}
fi

# One list of the Debian packages the project needs (see docs/building.md).
DISTIR_PACKAGES=(
  cmake ninja-build ccache g++ python3
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata python3-onnx
  nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev
  libopenblas-dev python3-numpy
  librandom123-dev              # training dropout's counter-based generator
  clang-14 libclang-rt-14-dev   # libFuzzer target of the ONNX importer
  clang-format-22 clang-tidy-22  # the style tests
  python3-dev python3-pybind11  # the Python package (python/)
  python3-pytest python3-pandas python3-matplotlib python3-torch  # its tests
  libjs-chart.js                # the plots of dist-sim/dist-search --html
  chromium                      # the browser tests of those pages
  openmpi-bin libopenmpi-dev    # dist-run --mpi: the program on real processes
)

distir_install_deps() {
  local missing=()
  local pkg
  for pkg in "${DISTIR_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local cmd="apt-get install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "distir: missing Debian packages. Run as root:" >&2
    echo "  apt-get update && $cmd" >&2
    exit 1
  fi
  echo "distir: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  $cmd >/dev/null
}

distir_build() {
  # Configure when the build directory is new or was configured with the
  # other assertion setting (a DISTIR_BUILD_DIR shared by both scripts).
  if [ ! -f "$BUILD_DIR/build.ninja" ] \
    || ! grep -qx "DISTIR_ENABLE_ASSERTIONS:BOOL=$DISTIR_ASSERTIONS" \
      "$BUILD_DIR/CMakeCache.txt"; then
    cmake -S "$DISTIR_ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
      -DDISTIR_ENABLE_ASSERTIONS="$DISTIR_ASSERTIONS" >/dev/null
  fi
  # Two parallel compile jobs: each MLIR translation unit needs ~0.5 GB.
  cmake --build "$BUILD_DIR" -- -j"${DISTIR_JOBS:-$(nproc)}" "$@"
}

# The same, printing the build's output only when it fails.
distir_build_quietly() {
  local log="$BUILD_DIR/last-build.log"
  mkdir -p "$BUILD_DIR"
  if ! distir_build "$@" >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "distir: the build failed; full log in $log" >&2
    exit 1
  fi
}
