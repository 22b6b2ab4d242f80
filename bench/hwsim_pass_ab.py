#!/usr/bin/env python3
"""One pass of `hwsim run HOST -- true` over every fixture host, cold (a fresh
cache folder in /dev/shm) then warm (the same folder again), for hwsim builds side
by side: ROUNDS rounds (default 3), each running every build's two passes, so that
the machine's load falls on all alike. Each pass is one `perf stat -e task-clock`
of a shell loop; prints the CPU time's and the wall time's median and min per
build and pass (docs/performance.md, "Trees shared between snapshots").
Keep each binary beside build/'s simulated libraries (copy it into build/).

    python3 bench/hwsim_pass_ab.py ROUNDS HWSIM [HWSIM...]
"""
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def one_pass(binary, cache, hosts):
    env = dict(os.environ, HWSIM_TREE_CACHE=cache)
    loop = "for h in " + " ".join(hosts) + "; do \"$0\" run \"$h\" -- true || exit 1; done"
    start = time.perf_counter()
    done = subprocess.run(["perf", "stat", "-x,", "-e", "task-clock", "sh", "-c", loop, binary],
                          env=env, capture_output=True, text=True, check=False)
    wall = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        sys.exit(f"{binary}: exit {done.returncode}\n{done.stderr[-2000:]}")
    cpu = None
    for line in done.stderr.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2] == "task-clock":
            cpu = float(fields[0])
    return cpu, wall


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds, binaries = int(sys.argv[1]), sys.argv[2:]
    hosts = sorted(glob.glob("fixtures/hosts/*.yaml"))
    got = {(b, p): [] for b in binaries for p in ("cold", "warm")}
    for _ in range(rounds):
        for b in binaries:
            cache = tempfile.mkdtemp(prefix="pass-", dir="/dev/shm")
            try:
                got[(b, "cold")].append(one_pass(b, cache, hosts))
                got[(b, "warm")].append(one_pass(b, cache, hosts))
            finally:
                shutil.rmtree(cache, ignore_errors=True)
    print(f"{len(hosts)} hosts a pass, {rounds} rounds.\n")
    print("| binary | pass | CPU median | CPU min | wall median | wall min |")
    print("|---|---|---|---|---|---|")
    for (b, p), values in got.items():
        cpu = [v[0] for v in values]
        wall = [v[1] for v in values]
        print(f"| {b} | {p} | {statistics.median(cpu):.0f} ms | {min(cpu):.0f} | "
              f"{statistics.median(wall):.0f} ms | {min(wall):.0f} |")


if __name__ == "__main__":
    main()
