#!/usr/bin/env bash
# Fidelity of dist-sim against Megatron-LM's published runs (issue 12):
#  - Korthikanti et al. 2022, Table 4: the marginal GPT-22B layer (the
#    8-layer minus the 4-layer program, per layer; tp=8 on one DGX A100),
#    forward and forward+backward, every row (the calibration target is the
#    baseline row, the others are checks);
#  - Narayanan et al. SC'21, Table 1: every row, published vs simulated
#    TF/s per GPU (the paper's formula, 96 B s l h^2 (1 + s/(6h) +
#    V/(16 l h)) per step) and the error;
#  - the contribution of each mechanism for three rows: each switched off in
#    turn, the change of the simulated TF/s.
# It measures whatever the build does; the figures in docs/dist-sim.md
# ("Fidelity") say when they were taken. Table 1's pipeline rows are large
# programs (1T: 512 microbatches, ~3 GB and ~2.5 min).
#   bash bench/fidelity/run.sh [table4] [table1] [mechanisms]   # default: all
#   ROWS=1.7B,18B bash bench/fidelity/run.sh table1             # some rows
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
export DIST_BIN=${DIST_BIN:-$root/build/bin}
exec python3 "$root/bench/fidelity/fidelity.py" "$@"
