#!/bin/sh
# check.sh "MPIRUN" N PROGRAM REFERENCE WORKDIR [dist-run options...]
#
# PROGRAM on N MPI ranks (MPIRUN is lit's %mpirun) against the sequential
# executor: with MPI's own reductions, --reference REFERENCE must pass within
# the default tolerance; with --mpi-deterministic, every result (printed and
# written as .npy) must be bitwise what dist-run without --mpi gives.
mpirun=$1 n=$2 program=$3 reference=$4 work=$5
shift 5
rm -rf "$work" && mkdir -p "$work"
show() { cat "$work"/*.txt >&2; exit 1; }
$mpirun "$n" dist-run "$program" --mpi --reference "$reference" --seed 3 "$@" \
  > "$work/reference.txt" 2>&1 || show
grep -q "^overall: .*: PASS" "$work/reference.txt" || show
dist-run "$program" --seed 3 --output-dir "$work/sequential" "$@" \
  > "$work/sequential.txt" 2>&1 || show
$mpirun "$n" dist-run "$program" --mpi --mpi-deterministic --seed 3 \
  --output-dir "$work/mpi" "$@" > "$work/mpi.txt" 2>&1 || show
cmp "$work/sequential.txt" "$work/mpi.txt" >&2 || show
diff -r "$work/sequential" "$work/mpi" >&2 || show
echo "$(basename "$program") on $n ranks: equivalent"
