"""Checks the files of dist-run --calibrate: calibrate.test.py CLUSTER PROFILE."""
import json
import math
import sys


def positive(value, zero_ok=False):
    ok = isinstance(value, (int, float)) and math.isfinite(value)
    return ok and (value >= 0 if zero_ok else value > 0)


cluster = json.load(open(sys.argv[1]))
device = cluster["device"]
figures = [device["vector_flops"], device["memory_bandwidth"],
           device["memory_bytes"]] + list(device["matrix_flops"].values())
figures += [cluster[link]["bandwidth"] for link in ("intra_node", "inter_node")]
zero_ok = [device["launch_overhead_s"]] + [
    cluster[link]["latency_s"] for link in ("intra_node", "inter_node")]
good = all(positive(v) for v in figures) and all(
    positive(v, zero_ok=True) for v in zero_ok)
print("cluster: %d node of %d devices, every figure %s" % (
    cluster["nodes"], cluster["devices_per_node"],
    "positive and finite" if good else "NOT positive and finite"))

entries = json.load(open(sys.argv[2]))["entries"]
kinds = sorted({entry["kind"] for entry in entries})
good = all(positive(entry["seconds"]) for entry in entries)
print("profile: %d entries (%s), every time %s" % (
    len(entries), ", ".join(kinds),
    "positive and finite" if good else "NOT positive and finite"))
