"""Checks a dist-sim trace against the Chrome trace event format and prints
a one-line summary for FileCheck."""
import json
import sys

with open(sys.argv[1]) as f:
    trace = json.load(f)
events = trace["traceEvents"]
processes, threads = {}, set()
for event in events:
    phase = event["ph"]
    assert isinstance(event["pid"], int), event
    if phase == "M":
        if event["name"] == "process_name":
            processes[event["pid"]] = event["args"]["name"]
        elif event["name"] == "thread_name":
            threads.add(event["args"]["name"])
    elif phase == "X":
        assert isinstance(event["tid"], int), event
        assert isinstance(event["name"], str), event
        assert event["ts"] >= 0 and event["dur"] > 0, event
    elif phase == "C":
        assert isinstance(event["args"]["bytes"], int), event
    else:
        raise AssertionError("unexpected phase " + phase)
used = {e["pid"] for e in events if e["ph"] == "X"}
assert used <= set(processes), "events on unnamed processes"
print("valid trace processes=" + ",".join(processes[p] for p in sorted(processes))
      + " threads=" + ",".join(sorted(threads)))
