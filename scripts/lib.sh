# Shared by scripts/demo.sh and scripts/test.sh: install what is missing, then
# configure and build incrementally. Sourced, not run.
set -euo pipefail

DISTIR_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${DISTIR_BUILD_DIR:-$DISTIR_ROOT/build}

# One list of the Debian packages the project needs (see docs/building.md).
DISTIR_PACKAGES=(
  cmake ninja-build ccache g++ python3
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata python3-onnx
  nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev
  libopenblas-dev python3-numpy
  clang-14 libclang-rt-14-dev   # libFuzzer target of the ONNX importer
  clang-format-22 clang-tidy-22  # the style tests
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
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    cmake -S "$DISTIR_ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir >/dev/null
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
