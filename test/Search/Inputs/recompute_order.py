"""Checks that activation recomputation trades memory the right way: for
every configuration a dist-search CSV holds with both `none` and `mode`
(argv[2]), the recomputed run's simulated peak memory is never higher, and
strictly lower unless the peak is not set by activations (e.g. by the
updated parameters and optimizer state at the end of the step): the count of
strictly lower ones is printed for the test to check."""
import csv
import sys

mode = sys.argv[2]
peaks = {}
for row in csv.DictReader(open(sys.argv[1])):
    key = (row["model"], row["devices"], row["global_batch"], row["dp"],
           row["tp"], row["pp"], row["microbatches"], row["schedule"])
    peaks.setdefault(key, {})[row["recompute"]] = int(row["peak_memory_bytes"])
pairs = lower = 0
for key, by_mode in sorted(peaks.items()):
    if "none" not in by_mode or mode not in by_mode:
        continue
    pairs += 1
    if by_mode[mode] > by_mode["none"]:
        print("HIGHER %s: %s %d > none %d" % (" ".join(key), mode,
                                              by_mode[mode], by_mode["none"]))
    lower += by_mode[mode] < by_mode["none"]
print("compared %d configurations, %s lower in %d" % (pairs, mode, lower))
