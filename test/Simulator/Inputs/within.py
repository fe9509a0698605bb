"""Prints whether a dist-sim report's step time is within a relative
tolerance of a measured time: within.py report.json measured_s tolerance."""
import json
import sys

step = json.load(open(sys.argv[1]))["step_time_s"]
measured, tolerance = float(sys.argv[2]), float(sys.argv[3])
error = (step - measured) / measured
verdict = "within" if abs(error) <= tolerance else "OUTSIDE"
print("%s %d%%: simulated %.3f ms, measured %.3f ms, error %+.1f%%"
      % (verdict, round(tolerance * 100), step * 1e3, measured * 1e3, error * 100))
