"""step-relation.py a.json b.json: prints "<", "=" or ">" as the step time of
dist-sim report a is below, bit-identical to or above report b's, then both
times."""
import json
import sys

a = json.load(open(sys.argv[1]))["step_time_s"]
b = json.load(open(sys.argv[2]))["step_time_s"]
relation = "=" if a == b else "<" if a < b else ">"
print("%s %.6f ms vs %.6f ms" % (relation, a * 1e3, b * 1e3))
