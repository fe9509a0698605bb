#!/bin/bash
# Measures how far each corpus model gets through distir today and prints the
# status table of README.md (one row per model; a cell is "ok" or the first
# line of the error). Not a test: the lit tests pin what works.
#
#   test/RealModels/status.sh [BUILD_BIN_DIR] [MODEL...]
#
# Steps (each after the previous one that it needs succeeded):
#   import    dist-translate --import-onnx model.onnx
#   forward   dist-run with the model's weights and inputs = torch's output and loss
#   gradients dist-autodiff=optimizer=none, dist-run = torch's gradients
#   then, on the Adam training step (dist-autodiff=optimizer=adam), each
#   parallel form built by dist-opt and checked by dist-run --reference:
#   dp=2 | tp=2 | pp=2 mb=4 1f1b | pp=2 mb=4 gpipe | dp=2 tp=2 pp=2 mb=2 (1f1b)
#   and, to tell the causes apart, pp=2 with one microbatch (1f1b) and
#   dp=2 pp=2 with one microbatch; every parallel program that builds is also
#   simulated (dist-sim --cluster dgx-a100; a failure is added to the cell)
#   and dist-search on 8 devices of a DGX A100 (ranked configurations or not).
#   Then the symbolic-batch export (model.dynamic_batch.onnx): imported with
#   --input-shape at batch 4, its forward = torch's; imported at batch 8,
#   dist-search on 8 devices.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${1:-$HERE/../../build/bin}
shift || true
MODELS=("$@")
[ ${#MODELS[@]} -eq 0 ] && MODELS=(resnet mobilenet_v3 densenet vit swin lstm_lm gru_lm bert gpt2 t5)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The first line of a failing step's diagnostics, trimmed to one table cell.
first_error() {
  grep -m1 -E 'error|FAIL|Error' "$1" | sed -e "s|$WORK/||g" -e "s|$HERE/||g" | cut -c1-160
}

step() {  # step LOG CMD... ; prints ok or the error, returns the status
  local log=$1
  shift
  if "$@" >"$log" 2>&1; then echo ok; return 0; fi
  echo "$(first_error "$log")"
  return 1
}

# --input-shape options giving every input of model $1 batch $2 (the other
# dims from its .npy).
input_shapes() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys, numpy as np
d, batch = sys.argv[1], int(sys.argv[2])
for name in json.load(open(f"{d}/map.json"))["inputs"]:
    shape = [batch] + list(np.load(f"{d}/{name}.npy", mmap_mode="r").shape[1:])
    print(f"--input-shape {name}={'x'.join(map(str, shape))}", end=" ")
PY
}

dynamic_batch() {  # dynamic_batch MODEL DIR WORK: appends two cells to row
  local m=$1 d=$2 w=$3 onnx=$2/model.dynamic_batch.onnx
  # shellcheck disable=SC2046
  row+=("$(step "$w/dyn.log" sh -c '"$@" && /usr/bin/python3 '"$HERE"'/compare.py forward '"$d $w"'/dynfwd' _ \
    sh -c '"$1" --import-onnx "$2" -o "$3" $4 && shift 4 && "$@"' _ "$BIN/dist-translate" "$onnx" "$w/dyn4.mlir" "$(input_shapes "$d" 4)" \
    "$BIN/dist-run" --weights "$onnx" "${inputs[@]}" "$w/dyn4.mlir" --output-dir "$w/dynfwd")")
  # shellcheck disable=SC2046
  if ! "$BIN/dist-translate" --import-onnx "$onnx" $(input_shapes "$d" 8) -o "$w/dyn8.mlir" >"$w/dyn8.log" 2>&1; then
    row+=("$(first_error "$w/dyn8.log")")
    return
  fi
  "$BIN/dist-search" "$w/dyn8.mlir" --cluster dgx-a100 --devices 8 --progress=false >"$w/dsearch.log" 2>&1
  row+=("$(search_cell "$w/dsearch.log")")
}

search_cell() {
  if grep -q '^ *1 ' "$1"; then
    echo "ok ($(grep -m1 -o '[0-9]* simulated ([0-9]* fit)' "$1"))"
  else
    grep -m1 -E 'error|configurations:' "$1" | sed "s|$WORK/||g" | cut -c1-160
  fi
}

echo "| model | import | forward | gradients | dp=2 | tp=2 | pp=2 mb=4 1f1b | pp=2 mb=4 gpipe | dp2 tp2 pp2 mb=2 | pp=2 mb=1 | dp2 pp2 mb=1 | dist-search 8 devices | dynamic batch: import + forward (batch 4) | dynamic batch 8: dist-search 8 devices |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for m in "${MODELS[@]}"; do
  d=$HERE/$m
  w=$WORK/$m
  mkdir -p "$w"
  inputs=()
  for name in $(/usr/bin/python3 -c "import json,sys; print(' '.join(json.load(open(sys.argv[1]))['inputs']))" "$d/map.json"); do
    inputs+=(--input "$name=$d/$name.npy")
  done
  run=("$BIN/dist-run" --weights "$d/model.onnx" "${inputs[@]}")
  row=("$m")
  if ! cell=$(step "$w/import.log" "$BIN/dist-translate" --import-onnx "$d/model.onnx" -o "$w/model.mlir"); then
    row+=("$cell" - - - - - - - - - - - -)
  else
    row+=("$cell")
    row+=("$(step "$w/fwd.log" sh -c '"$@" && /usr/bin/python3 '"$HERE"'/compare.py forward '"$d $w"'/fwd' _ \
      "${run[@]}" "$w/model.mlir" --output-dir "$w/fwd")")
    row+=("$(step "$w/grad.log" sh -c '"$@" && /usr/bin/python3 '"$HERE"'/compare.py gradients '"$d $w"'/grad '"$w"'/model.mlir' _ \
      sh -c '"$1"/dist-opt "$2" --dist-autodiff=optimizer=none -o "$3" && shift 3 && "$@"' _ "$BIN" "$w/model.mlir" "$w/grad.mlir" \
      "${run[@]}" "$w/grad.mlir" --output-dir "$w/grad")")
    if ! "$BIN/dist-opt" "$w/model.mlir" --dist-autodiff=optimizer=adam -o "$w/train.mlir" >"$w/train.log" 2>&1; then
      e=$(first_error "$w/train.log")
      row+=("$e" "$e" "$e" "$e" "$e" "$e" "$e")
    else
      i=0
      for pass in "--dist-data-parallel=dp=2" "--dist-tensor-parallel=tp=2" \
          "--dist-pipeline=pp=2 microbatches=4 schedule=1f1b" \
          "--dist-pipeline=pp=2 microbatches=4 schedule=gpipe" \
          "--dist-parallelize=dp=2 tp=2 pp=2 microbatches=2 schedule=1f1b" \
          "--dist-pipeline=pp=2 microbatches=1" "--dist-parallelize=dp=2 pp=2 microbatches=1"; do
        i=$((i + 1))
        if ! cell=$(step "$w/par$i.log" "$BIN/dist-opt" "$w/train.mlir" "$pass" -o "$w/par$i.mlir"); then
          row+=("$cell")
          continue
        fi
        cell=$(step "$w/ref$i.log" "${run[@]}" "$w/par$i.mlir" --reference "$w/train.mlir")
        if ! "$BIN/dist-sim" "$w/par$i.mlir" --cluster dgx-a100 >"$w/sim$i.log" 2>&1; then
          cell="$cell; dist-sim: $(first_error "$w/sim$i.log")"
        fi
        row+=("$cell")
      done
    fi
    "$BIN/dist-search" "$w/model.mlir" --cluster dgx-a100 --devices 8 --progress=false >"$w/search.log" 2>&1
    row+=("$(search_cell "$w/search.log")")
  fi
  if [ "${row[1]}" = ok ]; then
    dynamic_batch "$m" "$d" "$w"
  fi
  (IFS='|'; echo "|${row[*]}|" | sed 's/|/ | /g; s/  */ /g; s/^ //; s/ $//')
done
