#!/usr/bin/env python3
"""`hwsim run dgx-h100 -- true`, cold (the tree planned and written into a fresh
cache folder in /dev/shm each run), for hwsim builds side by side: ROUNDS rounds
(default 10), each running every build once, so that the machine's load falls on
all alike. Each run is under `perf stat -e task-clock,page-faults`; prints the
CPU time's and the wall time's median, p90 and min, and the median page faults
(docs/performance.md, "A cold run: the tree planned and written", issue 37).
Keep each binary beside build/'s simulated libraries (copy it into build/).
With --after VARIANT, each fresh cache first gets VARIANT's tree (untimed, by the
same binary): the cold run of a snapshot after a variant of the same machine ran
(the CPU topology layer shared, docs/performance.md "Trees shared between
snapshots").

    python3 bench/hwsim_cold_ab.py [--after VARIANT.yaml] ROUNDS HWSIM [HWSIM...]
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HOST = "fixtures/hosts/dgx-h100.yaml"


AFTER = None


def one_run(binary):
    cache = tempfile.mkdtemp(prefix="cold-", dir="/dev/shm")
    try:
        env = dict(os.environ, HWSIM_TREE_CACHE=cache)
        if AFTER:
            subprocess.run([binary, "run", AFTER, "--", "true"], env=env, capture_output=True,
                           check=True)
        start = time.perf_counter()
        done = subprocess.run(["perf", "stat", "-x,", "-e", "task-clock,page-faults", binary,
                               "run", HOST, "--", "true"], env=env, capture_output=True,
                              text=True, check=False)
        wall = (time.perf_counter() - start) * 1000
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    if done.returncode != 0:
        sys.exit(f"{binary}: exit {done.returncode}\n{done.stderr}")
    cpu = faults = None
    for line in done.stderr.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2] == "task-clock":
            cpu = float(fields[0])
        if len(fields) > 2 and fields[2] == "page-faults":
            faults = int(fields[0])
    return cpu, wall, faults


def p90(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(0.9 * len(values)))]


def main():
    global AFTER
    args = sys.argv[1:]
    if len(args) >= 2 and args[0] == "--after":
        AFTER, args = args[1], args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    rounds, binaries = int(args[0]), args[1:]
    got = {b: [] for b in binaries}
    for _ in range(rounds):
        for b in binaries:
            got[b].append(one_run(b))
    print("| binary | runs | CPU median | CPU p90 | CPU min | wall median | wall p90 | wall min "
          "| page faults |")
    print("|---|---|---|---|---|---|---|---|---|")
    for b in binaries:
        cpu = [r[0] for r in got[b]]
        wall = [r[1] for r in got[b]]
        faults = [r[2] for r in got[b]]
        print(f"| {b} | {len(cpu)} | {statistics.median(cpu):.1f} ms | {p90(cpu):.1f} | "
              f"{min(cpu):.1f} | {statistics.median(wall):.1f} ms | {p90(wall):.1f} | "
              f"{min(wall):.1f} | {int(statistics.median(faults)):,} |")


if __name__ == "__main__":
    main()
