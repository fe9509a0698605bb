"""Checks that the memory lower bound of every simulated configuration of a
dist-search CSV is at most its simulated peak (a sound bound never prunes a
configuration that fits)."""
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
for row in rows:
    if int(row["memory_bound_bytes"]) > int(row["peak_memory_bytes"]):
        print("UNSOUND %s dp=%s tp=%s pp=%s mb=%s %s: bound %s > peak %s" % (
            row["method"], row["dp"], row["tp"], row["pp"], row["microbatches"],
            row["schedule"], row["memory_bound_bytes"], row["peak_memory_bytes"]))
ratios = [int(r["memory_bound_bytes"]) / int(r["peak_memory_bytes"]) for r in rows]
print("checked %d configurations, bound / peak in [%.2f, %.2f]" % (
    len(rows), min(ratios), max(ratios)))
