"""Checks that two dist-search CSVs of the same search give every
configuration the same memory and step-time bounds, to the byte and the bit
(the default search folds a generated GPT's middle layers for its bounds and
stage-cut times; --build-all builds every layer).
  same_bounds.py reference.csv other.csv"""
import csv
import sys

key = lambda r: (r["dp"], r["tp"], r["pp"], r["microbatches"], r["schedule"],
                 r.get("recompute", ""), r.get("sequence_parallel", ""),
                 r.get("zero", ""))
reference = {key(r): r for r in csv.DictReader(open(sys.argv[1]))}
compared = 0
for row in csv.DictReader(open(sys.argv[2])):
    r = reference.get(key(row))
    if r is None:
        print("MISSING", key(row))
        continue
    compared += 1
    for column in ("memory_bound_bytes", "step_time_bound_s"):
        if row[column] != r[column]:
            print("DIFFERENT %s %s: %s vs %s" % (key(row), column, row[column], r[column]))
print("compared %d configurations" % compared)
