"""compare.py a.json b.json: prints "faster" if report a's step time is at
least 5% below report b's, else "NOT faster", with both times."""
import json
import sys

a = json.load(open(sys.argv[1]))["step_time_s"]
b = json.load(open(sys.argv[2]))["step_time_s"]
print("%s %.3f ms vs %.3f ms" % ("faster" if a < 0.95 * b else "NOT faster", a * 1e3, b * 1e3))
