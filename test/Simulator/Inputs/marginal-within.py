"""Prints whether the marginal layer of two dist-sim reports (a program with
more layers minus one with fewer, per layer) is within a relative tolerance
of a measured per-layer time:
marginal-within.py small.json small_layers large.json large_layers measured_s tolerance.
The marginal layer leaves out what both programs share (embedding, LM head,
loss), as the per-layer figures of Korthikanti et al. 2022, Table 4, do."""
import json
import sys

small, small_layers = json.load(open(sys.argv[1]))["step_time_s"], int(sys.argv[2])
large, large_layers = json.load(open(sys.argv[3]))["step_time_s"], int(sys.argv[4])
measured, tolerance = float(sys.argv[5]), float(sys.argv[6])
layer = (large - small) / (large_layers - small_layers)
error = (layer - measured) / measured
verdict = "within" if abs(error) <= tolerance else "OUTSIDE"
print("%s %d%%: marginal layer %.3f ms, measured %.3f ms, error %+.1f%%"
      % (verdict, round(tolerance * 100), layer * 1e3, measured * 1e3, error * 100))
