#!/usr/bin/env python3
"""Runs the bad-input corpus (cases.txt, written by generate.py).

Each case must end within the time limit with a non-zero exit status, not by
a signal, and write exactly one non-empty line to stderr. Prints every case
that does not, and exits 1 if there is one.

    run.py --bin build/bin [--jobs 2] [--timeout 60] [--filter SUBSTRING]
"""

import argparse
import concurrent.futures
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# Address space of each case: a tool that tries to allocate more fails to
# allocate (and must say so in one line) instead of taking the machine.
MEMORY_LIMIT = 8 << 30


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_case(name, command, bin_dir, timeout, scratch):
    case_dir = os.path.join(scratch, name)
    os.makedirs(case_dir)
    words = shlex.split(command.replace("%S", os.path.join(HERE, "cases"))
                        .replace("%T", case_dir))
    words[0] = os.path.join(bin_dir, words[0])
    start = time.monotonic()
    try:
        result = subprocess.run(words, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, timeout=timeout,
                                cwd=case_dir, preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        return "did not end within %d s" % timeout
    seconds = time.monotonic() - start
    stderr = result.stderr.decode("utf-8", "replace")
    lines = stderr.splitlines()
    if result.returncode < 0 or result.returncode >= 128:
        return "ended by a signal (status %d): %s" % (result.returncode,
                                                      stderr[-300:])
    if result.returncode == 0:
        return "exited 0"
    if len(lines) != 1 or not lines[0].strip():
        return "wrote %d lines to stderr (%d bytes): %r" % (
            len(lines), len(stderr), stderr[:400])
    if seconds > timeout / 2:
        return "took %.1f s" % seconds
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--filter", default="")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    cases = []
    with open(os.path.join(HERE, "cases.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, command = line.rstrip("\n").split(" ", 1)
            if args.filter in name:
                cases.append((name, command))
    failures = 0
    with tempfile.TemporaryDirectory() as scratch, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [(name, command,
                    pool.submit(run_case, name, command, args.bin,
                                args.timeout, scratch))
                   for name, command in cases]
        for name, command, future in futures:
            problem = future.result()
            if problem:
                failures += 1
                print("FAIL %s: %s\n     %s" % (name, problem, command))
            elif args.verbose:
                print("ok   %s" % name)
    print("%d of %d bad inputs handled (non-zero exit, no signal, one line)"
          % (len(cases) - failures, len(cases)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
