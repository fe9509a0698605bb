"""Prints, for the dp=4 tp=1 pp=1 rows of a dist-search CSV, whether the
smallest peak memory of each ZeRO stage decreases with the stage:
"dp=4 tp=1 pp=1: zero=0 > zero=1 > zero=2, zero=3 < zero=1", else the
peaks. Stage 3 is only compared with stage 1: on a two-layer model its
gathered copies (a layer plus the next one's prefetch) are all parameters,
which stage 2 keeps as they are."""
import csv
import sys

best = {}
for row in csv.DictReader(open(sys.argv[1])):
    if (row["dp"], row["tp"], row["pp"]) != ("4", "1", "1"):
        continue
    stage = int(row.get("zero") or 0)
    peak = int(row["peak_memory_bytes"])
    best[stage] = min(best.get(stage, peak), peak)
stages = sorted(best)
peaks = [best[s] for s in stages]
if (stages == [0, 1, 2, 3] and peaks[0] > peaks[1] > peaks[2] and
        peaks[3] < peaks[1]):
    print("dp=4 tp=1 pp=1: zero=0 > zero=1 > zero=2, zero=3 < zero=1")
else:
    print("dp=4 tp=1 pp=1: " + ", ".join(
        "zero=%d %d B" % (s, best[s]) for s in stages))
