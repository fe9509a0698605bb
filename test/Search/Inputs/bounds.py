"""Checks that the memory and step-time lower bounds of every simulated
configuration of a dist-search CSV are at most its simulated peak and step
time (sound bounds never prune what could fit or win)."""
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
for row in rows:
    for bound, value in (("memory_bound_bytes", "peak_memory_bytes"),
                         ("step_time_bound_s", "step_time_s")):
        if float(row[bound]) > float(row[value]):
            print("UNSOUND %s %s dp=%s tp=%s pp=%s mb=%s %s: %s > %s" % (
                bound, row["method"], row["dp"], row["tp"], row["pp"],
                row["microbatches"], row["schedule"], row[bound], row[value]))
for bound, value in (("memory_bound_bytes", "peak_memory_bytes"),
                     ("step_time_bound_s", "step_time_s")):
    ratios = [float(r[bound]) / float(r[value]) for r in rows]
    print("%s / %s in [%.2f, %.2f]" % (bound, value, min(ratios), max(ratios)))
print("checked %d configurations" % len(rows))
