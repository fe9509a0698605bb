"""Runs the reproduction command of every row of a dist-search CSV and checks
that dist-sim reports exactly the same step time and peak memory. The search
builds and simulates in memory (composing programs of more than two
microbatches); the command goes through text and the whole program."""
import csv
import json
import os
import subprocess
import sys
import tempfile

rows = list(csv.DictReader(open(sys.argv[1])))
if not rows:
    sys.exit("no row to reproduce")
methods = {}
with tempfile.TemporaryDirectory() as tmp:
    report = os.path.join(tmp, "report.json")
    for row in rows:
        subprocess.run(row["command"] + " --report " + report, shell=True,
                       check=True, stdout=subprocess.DEVNULL)
        sim = json.load(open(report))
        same = (repr(float(row["step_time_s"])) == repr(sim["step_time_s"]) and
                int(row["peak_memory_bytes"]) == sim["peak_memory_bytes"])
        if not same:
            print("DIFFERENT %s: %s %s vs dist-sim %s %s" % (
                row["command"], row["step_time_s"], row["peak_memory_bytes"],
                sim["step_time_s"], sim["peak_memory_bytes"]))
        methods[row["method"]] = methods.get(row["method"], 0) + 1
print("reproduced %d rows (%s)" % (len(rows), ", ".join(
    "%d %s" % (n, m) for m, n in sorted(methods.items()))))
