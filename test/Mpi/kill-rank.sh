#!/bin/sh
# kill-rank.sh RANK SECONDS COMMAND...: under mpirun, runs COMMAND, but on
# MPI rank RANK kills it (SIGKILL) after SECONDS, as a crash would.
rank=$1 seconds=$2
shift 2
if [ "$OMPI_COMM_WORLD_RANK" = "$rank" ]; then
  exec timeout -s KILL "$seconds" "$@"
fi
exec "$@"
