"""Compares the figures of one dist-search CSV (rows of method OTHER,
default composed) with those of a reference CSV (rows of method REFERENCE,
default exact), configuration by configuration, and fails beyond the given
relative tolerances (step time, peak memory).
  compare.py reference.csv other.csv time_tol memory_tol [REFERENCE OTHER]"""
import csv
import sys

exact_csv, composed_csv, time_tolerance, memory_tolerance = sys.argv[1:5]
reference_method, other_method = (sys.argv[5:7] if len(sys.argv) > 6
                                  else ("exact", "composed"))
key = lambda r: (r["model"], r["devices"], r["global_batch"], r["dp"], r["tp"],
                 r["pp"], r["microbatches"], r["schedule"],
                 r.get("recompute", "none"), r.get("sequence_parallel", ""),
                 r.get("zero", "0"))
exact = {key(r): r for r in csv.DictReader(open(exact_csv)) if r["method"] == reference_method}
compared = worst_time = worst_memory = 0
for row in csv.DictReader(open(composed_csv)):
    if row["method"] != other_method or key(row) not in exact:
        continue
    e = exact[key(row)]
    time = abs(float(row["step_time_s"]) / float(e["step_time_s"]) - 1)
    memory = abs(int(row["peak_memory_bytes"]) / int(e["peak_memory_bytes"]) - 1)
    worst_time, worst_memory = max(worst_time, time), max(worst_memory, memory)
    compared += 1
    if time > float(time_tolerance) or memory > float(memory_tolerance):
        print("OFF dp=%s tp=%s pp=%s: step %s vs %s, peak %s vs %s" % (
            row["dp"], row["tp"], row["pp"], row["step_time_s"], e["step_time_s"],
            row["peak_memory_bytes"], e["peak_memory_bytes"]))
print("compared %d configurations, worst step time %.3f%%, worst peak memory %.4f%%"
      % (compared, 100 * worst_time, 100 * worst_memory))
