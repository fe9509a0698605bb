"""Checks a --max-devices search's CSV: every configuration uses at most the
limit, dp divides the batch, and no larger dp would have fitted its (tp, pp)
(the space keeps only the largest). Prints one line per check."""
import csv
import sys

path, limit = sys.argv[1], int(sys.argv[2])
rows = list(csv.DictReader(open(path)))
meshes = {(int(r["dp"]), int(r["tp"]), int(r["pp"])) for r in rows}
for r in rows:
    dp, tp, pp = int(r["dp"]), int(r["tp"]), int(r["pp"])
    batch, devices = int(r["global_batch"]), int(r["devices"])
    if devices != dp * tp * pp or devices > limit or batch % dp:
        sys.exit(f"bad row: {r}")
    larger = [d for d in range(dp + 1, limit // (tp * pp) + 1) if batch % d == 0]
    if larger:
        sys.exit(f"dp={dp} tp={tp} pp={pp}: dp={larger[-1]} also fits")
print(f"{len(rows)} rows within {limit} devices")
print(f"{len(meshes)} meshes, each with its largest dp")
print("fewer than the limit:", any(dp * tp * pp < limit for dp, tp, pp in meshes))
