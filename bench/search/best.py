"""Prints the best configuration that fits per (model, world size) of a
dist-search CSV: the row with the highest samples/s among those that fit."""
import csv
import sys

best = {}
rows = 0
for row in csv.DictReader(open(sys.argv[1])):
    rows += 1
    if row["fits"] != "true":
        continue
    key = (row["model"], int(row["devices"]))
    if key not in best or float(row["samples_per_s"]) > float(best[key]["samples_per_s"]):
        best[key] = row
print("  %-12s %5s  %-40s %12s %12s %10s %7s" % (
    "model", "world", "best configuration", "samples/s", "step ms", "peak GiB", "MFU %"))
for (model, world), r in sorted(best.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    config = "batch=%s dp=%s tp=%s pp=%s mb=%s %s" % (
        r["global_batch"], r["dp"], r["tp"], r["pp"], r["microbatches"], r["schedule"])
    print("  %-12s %5d  %-40s %12.1f %12.3f %10.2f %7.1f" % (
        model, world, config.strip(), float(r["samples_per_s"]),
        1e3 * float(r["step_time_s"]), int(r["peak_memory_bytes"]) / 2**30,
        100 * float(r["mfu"])))
print("  (%d simulated configurations in the CSV)" % rows)
