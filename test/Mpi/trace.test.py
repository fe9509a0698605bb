# Summarizes a dist-run --trace file for trace.test.
import json
import sys

events = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["pid"]: e["args"]["name"] for e in events if e["name"] == "process_name"}
print("processes: " + ", ".join(names[p] for p in sorted(names)))
threads = sorted({e["args"]["name"] for e in events if e["name"] == "thread_name"})
print("threads: " + ", ".join(threads))
complete = [e for e in events if e["ph"] == "X"]
streams = ["compute", "collective", "send", "receive"]
used = [s for i, s in enumerate(streams)
        if all(any(e["pid"] == p and e["tid"] == i for e in complete) for p in names)]
print("streams used by every rank: " + ", ".join(used))
first = min(e["ts"] for e in complete)
print("first event at %g, none before" % first)
print("memory counters: %d" % len({e["pid"] for e in events if e["ph"] == "C"}))
