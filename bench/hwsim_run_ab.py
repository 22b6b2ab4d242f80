#!/usr/bin/env python3
"""`hwsim run dgx-h100 -- true`, warm, for two hwsim builds side by side: ROUNDS
rounds (default 200) each running `true`, build A, build B and util-linux's
`unshare --mount --uts --pid --cgroup --fork --mount-proc true` once, so that the
machine's load falls on all four alike; each build has a warm tree cache of its
own in /dev/shm (filled before the rounds). Prints the wall-clock median, p90 and
min, the median over `true` and the ratio to the peer (docs/performance.md,
"The run's plan cached beside the tree").

    python3 bench/hwsim_run_ab.py BEFORE_HWSIM AFTER_HWSIM [ROUNDS]
"""
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    before, after = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    host = "fixtures/hosts/dgx-h100.yaml"
    true = shutil.which("true") or "/bin/true"
    cache = tempfile.mkdtemp(prefix="hwsim-run-ab-",
                             dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    env = dict(os.environ)
    peer = "peer: unshare --mount --uts --pid --cgroup --fork --mount-proc true"
    scenarios = [
        ("true", [true], env),
        (f"A: {before} run dgx-h100 -- true, warm", [before, "run", host, "--", true],
         dict(env, HWSIM_TREE_CACHE=os.path.join(cache, "a"))),
        (f"B: {after} run dgx-h100 -- true, warm", [after, "run", host, "--", true],
         dict(env, HWSIM_TREE_CACHE=os.path.join(cache, "b"))),
        (peer, ["unshare", "--mount", "--uts", "--pid", "--cgroup", "--fork", "--mount-proc",
                true], env),
    ]
    for _, argv, e in scenarios:  # fills the caches, warms the page cache
        bench.run_once(argv, e)
        bench.run_once(argv, e)
    walls = {name: [] for name, _, _ in scenarios}
    for _ in range(rounds):
        for name, argv, e in scenarios:
            wall, _, code = bench.run_once(argv, e)
            if code == 0:
                walls[name].append(wall * 1000)
    shutil.rmtree(cache, ignore_errors=True)
    print(f"{rounds} interleaved rounds; load average now {os.getloadavg()[0]:.2f}. Wall ms.\n")
    print("| scenario | runs | median | p90 | min | over `true` (median) | x the peer (median) |")
    print("|---|---|---|---|---|---|---|")
    base = statistics.median(walls["true"]) if walls["true"] else float("nan")
    ref = statistics.median(walls[peer]) if walls[peer] else float("nan")
    for name, values in walls.items():
        if not values:
            print(f"| {name} | 0 | – | – | – | – | – |")
            continue
        med = statistics.median(values)
        over = "" if name == "true" else f"+{med - base:.1f} ms"
        print(f"| {name} | {len(values)} | {med:.2f} | {bench.percentile(values, 90):.2f} | "
              f"{min(values):.2f} | {over} | {med / ref:.2f}x |")


if __name__ == "__main__":
    main()
