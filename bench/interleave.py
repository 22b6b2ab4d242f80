#!/usr/bin/env python3
"""Whole-process wall time of several commands, run in turn, round after round.

Interleaving puts every command under the same background load, so on a noisy
machine the ratios between them hold even when the absolute times drift (ten
runs in a row of one command, as in bench.py, can swing by a millisecond here).
Each run: Popen with output to /dev/null, then wait; no warm-up beyond the
first round. Prints median, 10th percentile and minimum per command, and each
command's median CPU (user + system, from wait4's rusage) and minor page faults.
Leading NAME=VALUE words of a command set its environment, as in a shell
(without starting one): "PATH=/empty build/hwaccel detect".

    bench/interleave.py --rounds 400 /bin/true "build/hwaccel detect" "OLD/hwaccel detect"
"""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("commands", nargs="+", help="each a command line, quoted")
    args = ap.parse_args()
    commands, envs = [], []
    for c in args.commands:
        words = shlex.split(c)
        env = dict(os.environ)
        while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
            name, value = words.pop(0).split("=", 1)
            env[name] = value
        commands.append(words)
        envs.append(env)
    times = [[] for _ in commands]
    cpus = [[] for _ in commands]
    faults = [[] for _ in commands]
    with open(os.devnull, "w") as null:
        for _ in range(args.rounds):
            for i, argv in enumerate(commands):
                start = time.perf_counter()
                child = subprocess.Popen(argv, stdout=null, stderr=null, env=envs[i])
                _, status, usage = os.wait4(child.pid, 0)
                child.returncode = os.waitstatus_to_exitcode(status)
                times[i].append((time.perf_counter() - start) * 1000)
                cpus[i].append((usage.ru_utime + usage.ru_stime) * 1000)
                faults[i].append(usage.ru_minflt)
    print(f"{args.rounds} rounds; load average {open('/proc/loadavg').read().split()[:3]}")
    print("| command | median ms | p10 | min | CPU median ms | page faults |")
    print("|---|---|---|---|---|---|")
    for argv, xs, cs, fs in zip(args.commands, times, cpus, faults):
        xs.sort()
        print(f"| `{argv}` | {statistics.median(xs):.2f} | {xs[len(xs) // 10]:.2f} "
              f"| {xs[0]:.2f} | {statistics.median(cs):.2f} | {statistics.median(fs):.0f} |")


if __name__ == "__main__":
    main()
