"""recompute-compare.py plain.json recomputed.json: compares two dist-sim
reports of the same training step without and with dist-recompute. Prints
whether the recomputed step's peak memory is lower ("less memory" / "NOT less
memory") and whether its step time is not lower ("not faster" / "FASTER":
recomputation adds work, so a faster step means the clones were not
simulated), with both figures."""
import json
import sys

plain = json.load(open(sys.argv[1]))
recomputed = json.load(open(sys.argv[2]))
pm, rm = plain["peak_memory_bytes"], recomputed["peak_memory_bytes"]
pt, rt = plain["step_time_s"], recomputed["step_time_s"]
print("%s: %.1f MB vs %.1f MB (%+.1f%%)"
      % ("less memory" if rm < pm else "NOT less memory", rm / 1e6, pm / 1e6,
         (rm - pm) / pm * 100))
print("%s: %.3f ms vs %.3f ms (%+.1f%%)"
      % ("not faster" if rt >= pt else "FASTER", rt * 1e3, pt * 1e3,
         (rt - pt) / pt * 100))
