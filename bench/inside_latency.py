#!/usr/bin/env python3
"""Run inside `hwsim run --latency HOST --`: times commands in turn, round after
round, in the one simulated host, so hwsim's own cost (writing and removing its
tree, ~200 ms on a busy disk) is paid once and not in every figure. Prints the
median and minimum wall time of each command (ms), and each median over the
first command's (the yardstick: one `nvidia-smi -L`).

    hwsim run --latency fixtures/hosts/h200-firecracker.yaml -- \\
        python3 bench/inside_latency.py --rounds 15 "nvidia-smi -L" "build/hwaccel detect"
"""
import argparse
import os
import shlex
import statistics
import subprocess
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("commands", nargs="+", help="each a command line, quoted; leading "
                                               "NAME=VALUE words set its environment")
    args = ap.parse_args()
    parsed = []
    for c in args.commands:
        words, env = shlex.split(c), dict(os.environ)
        while words and "=" in words[0] and not words[0].startswith("/"):
            name, _, value = words.pop(0).partition("=")
            env[name] = value
        parsed.append((c, words, env))
    times = {c: [] for c, _, _ in parsed}
    for r in range(args.rounds + 1):
        for c, words, env in parsed:
            t = time.perf_counter()
            subprocess.run(words, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if r:  # the first round warms the page cache and the loader
                times[c].append((time.perf_counter() - t) * 1000)
    base = statistics.median(times[parsed[0][0]])
    print("| command | median ms | min ms | x first |")
    print("|---|---|---|---|")
    for c, _, _ in parsed:
        m = statistics.median(times[c])
        print(f"| `{c}` | {m:.1f} | {min(times[c]):.1f} | {m / base:.2f}x |")


if __name__ == "__main__":
    main()
