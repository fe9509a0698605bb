"""Runs the reproduction command of every row of a dist-search CSV whose
method is `exact` and checks that dist-sim reports exactly the same step time
and peak memory (the search builds and simulates in memory; the command goes
through text)."""
import csv
import json
import os
import subprocess
import sys
import tempfile

rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["method"] == "exact"]
if not rows:
    sys.exit("no exact row to reproduce")
for row in rows:
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        subprocess.run(row["command"] + " --report " + report, shell=True,
                       check=True, stdout=subprocess.DEVNULL)
        sim = json.load(open(report))
    same = (repr(float(row["step_time_s"])) == repr(sim["step_time_s"]) and
            int(row["peak_memory_bytes"]) == sim["peak_memory_bytes"])
    print("%s dp=%s tp=%s pp=%s: %s" % ("same" if same else "DIFFERENT",
          row["dp"], row["tp"], row["pp"],
          "" if same else "%s %s vs %s %s" % (row["step_time_s"],
          row["peak_memory_bytes"], sim["step_time_s"], sim["peak_memory_bytes"])))
print("reproduced %d rows" % len(rows))
