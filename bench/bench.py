#!/usr/bin/env python3
"""Whole-process benchmarks of hwaccel and hwsim, with the peers found on this
machine measured in the same run (ratios, not absolute claims).

Each scenario runs N times (default 10) after one warm-up; we report the
median, min and max wall time and the peak RSS of the process tree's largest
member (ru_maxrss of the waited children). Processes are started with
posix_spawn and reaped with wait4, so the harness adds well under a
millisecond per run (the `/bin/true` row shows what it costs).

Run through ci/bench (it builds an optimised tree and installs the peers).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

DEVNULL = os.open(os.devnull, os.O_RDWR)


def run_once(argv, env):
    """Wall seconds and peak RSS (KiB) of one run; raises on a bad exit."""
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, env,
                          file_actions=[(os.POSIX_SPAWN_DUP2, DEVNULL, 1),
                                        (os.POSIX_SPAWN_DUP2, DEVNULL, 2)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss, code


def peak_rss_mib(argv, env):
    """Peak RSS of one run, from GNU time (a small parent: the harness's own
    15 MiB would otherwise show as the child's high-water mark)."""
    if not os.path.exists("/usr/bin/time"):
        return None
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        return int(r.stderr.strip().splitlines()[-1]) / 1024
    except (ValueError, IndexError):
        return None


def measure(name, argv, env, runs, ok_codes=(0,)):
    walls, rss = [], []
    code = None
    for i in range(runs + 1):
        wall, _, code = run_once(argv, env)
        if code not in ok_codes:
            return {"name": name, "error": f"exit {code}: {' '.join(argv)}"}
        if i == 0:
            continue  # warm-up: page cache, dynamic loader
        walls.append(wall * 1000)
    peak = peak_rss_mib(argv, env)
    return {"name": name, "median": statistics.median(walls), "min": min(walls),
            "max": max(walls), "rss": peak if peak is not None else float("nan"), "runs": runs}


def row(r, base=None):
    if "error" in r:
        return f"| {r['name']} | – | – | – | – | {r['error']} |"
    ratio = ""
    if base and "median" in base and base["median"] > 0:
        ratio = f"{r['median'] / base['median']:.2f}x"
    return (f"| {r['name']} | {r['median']:.2f} | {r['min']:.2f} | {r['max']:.2f} | "
            f"{r['rss']:.1f} | {ratio} |")


def fake_tool(folder, name, body):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, 0o755)


def vulkan_envs(prefix, base_env, empty_bin, tmp):
    """The Vulkan states from a private prefix (Debian's vulkan-tools,
    libvulkan1 and mesa-vulkan-drivers unpacked with `dpkg -x` into PREFIX, so
    nothing is installed system-wide): vulkaninfo with no driver; with Mesa's
    drivers and no GPU (the package's four manifests, copied with their library
    paths pointed into the prefix: RADV, ANV and HASVK find no render node,
    lavapipe lists the CPU as llvmpipe); and the same plus a manifest of a
    driver the probe cannot rule out, so that vulkaninfo is run as on a
    machine with a GPU. Returns (no_driver_env, llvmpipe_env, asked_env), or None."""
    tool = os.path.join(prefix, "usr/bin/vulkaninfo")
    if not os.access(tool, os.X_OK):
        return None
    libdir = os.path.join(prefix, "usr/lib/x86_64-linux-gnu")
    if not os.path.isdir(libdir):
        libdir = os.path.join(prefix, "usr/lib/aarch64-linux-gnu")
    icd_dir = os.path.join(prefix, "usr/share/vulkan/icd.d")
    manifests = sorted(os.listdir(icd_dir)) if os.path.isdir(icd_dir) else []
    env = dict(base_env, PATH=os.path.join(prefix, "usr/bin") + ":" + empty_bin,
               LD_LIBRARY_PATH=libdir, XDG_RUNTIME_DIR=tmp)
    no_driver = dict(env, VK_DRIVER_FILES="/nonexistent.json", VK_ICD_FILENAMES="/nonexistent.json")
    if not any(m.startswith("lvp_icd") for m in manifests):
        return no_driver, None, None
    mesa = os.path.join(tmp, "mesa-icd.d")
    os.mkdir(mesa)
    for m in manifests:
        with open(os.path.join(icd_dir, m)) as f:
            icd = f.read()
        with open(os.path.join(mesa, m), "w") as f:
            f.write(icd.replace('"/usr/lib/', '"' + os.path.join(prefix, "usr/lib") + "/"))
    other = os.path.join(tmp, "other-icd.json")
    with open(other, "w") as f:
        f.write('{"file_format_version": "1.0.0", "ICD": {"library_path": '
                '"libvulkan_not_installed.so", "api_version": "1.3.0"}}\n')
    llvmpipe = dict(env, VK_DRIVER_FILES=mesa, VK_ICD_FILENAMES=mesa)
    asked = dict(env, VK_DRIVER_FILES=mesa + ":" + other, VK_ICD_FILENAMES=mesa + ":" + other)
    return no_driver, llvmpipe, asked


def recorded_tool_ms(path):
    """(argv words, ms) of each tool run a snapshot records with `ms`. A line
    reader for the recorder's layout (`  - argv: [...]` then `    ms: N`), enough
    for the fixtures; runs without `ms` are left out."""
    runs, argv = [], None
    in_tools = False
    with open(path) as f:
        for line in f:
            if line.startswith("tools:"):
                in_tools = True
                continue
            if in_tools and line[:1] not in (" ", "\n", "#"):
                in_tools = False
            if not in_tools:
                continue
            if line.startswith("  - argv: ["):
                inner = line.split("[", 1)[1].rsplit("]", 1)[0]
                argv = [q if q or not b else b for q, b in
                        re.findall(r'"((?:[^"\\]|\\.)*)"|([^,\s"]+)', inner)]
            elif line.startswith("    ms:") and argv:
                try:
                    runs.append((argv, int(line.split(":", 1)[1].split("#")[0])))
                except ValueError:
                    pass
    return runs


def latency_host(explicit):
    """The snapshot for the recorded-latency scenario: --latency-host, else the
    real H200 recording, else the first fixture with a timed nvidia-smi run, else
    the first with any timed run."""
    if explicit:
        return explicit
    h200 = "fixtures/hosts/h200-firecracker.yaml"
    if os.path.exists(h200):
        return h200
    timed = [(f, recorded_tool_ms(os.path.join("fixtures/hosts", f)))
             for f in sorted(os.listdir("fixtures/hosts")) if f.endswith(".yaml")]
    for wanted in ("nvidia-smi", None):
        for f, runs in timed:
            if any(ms > 0 and wanted in (None, a[0]) for a, ms in runs):
                return os.path.join("fixtures/hosts", f)
    return None


def recorded_latency_section(hwsim, hwaccel, others, host, base_env, runs):
    """`hwaccel detect` under `hwsim run --latency`: every tool answers after the
    wall time recorded on the real host, so what the detector does with its tool
    runs (serial or together) shows as it would there. Next to it: the same with
    instant shims (hwsim's own cost) and the recorded nvidia-smi times alone."""
    print("\n## Detect on a simulated host with its recorded tool latencies\n")
    if not host:
        print("skipped: no snapshot with a recorded tool wall time (ms) "
              "(give one with --latency-host)")
        return
    # hwsim run writes the host's tree (~100 files) and removes it on every run: on
    # a busy disk that metadata work costs far more than detection (190 ms against
    # 15 ms on tmpfs here), so the tree goes to tmpfs where there is one. CMD
    # does not see TMPDIR: its environment is the snapshot's.
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        shm = dict(base_env, TMPDIR="/dev/shm")
        # Where the simulated host gets a /dev of its own, a tree under /dev/shm is
        # out of its sight (its tool shims with it): then the default TMPDIR.
        seen = subprocess.run([hwsim, "run", host, "--", "sh", "-c", "command -v nvidia-smi"],
                              env=shm, capture_output=True, text=True)
        if seen.returncode == 0 or "nvidia-smi" not in open(host, errors="replace").read():
            base_env = shm
    probe = subprocess.run([hwsim, "run", host, "--", "/bin/true"], env=base_env,
                           capture_output=True, text=True)
    if probe.returncode != 0 or "no private mount namespace" in probe.stderr:
        why = [l for l in probe.stderr.splitlines() if "namespace" in l] or \
              [f"exit {probe.returncode}"]
        print(f"skipped: `hwsim run` cannot simulate the host here: {why[0]}")
        return
    timed = recorded_tool_ms(host)
    smi = [(a, ms) for a, ms in timed if a[0] == "nvidia-smi"]
    query = [ms for a, ms in smi if any(w.startswith("--query-gpu=index,") for w in a)]
    follow = [ms for a, ms in smi if not any(w.startswith("--query-gpu=index,") for w in a)]
    print(f"host: {host}; trees in {base_env.get('TMPDIR', '/tmp')}; recorded runs: "
          + ", ".join(f"`{' '.join(a)[:48]}` {ms} ms" for a, ms in timed) + "\n")
    print("| scenario | median | min | max | RSS MiB | |")
    print("|---|---|---|---|---|---|")
    print(f"| tool latency alone, serial (sum of the recorded ms) | "
          f"{sum(ms for _, ms in timed):.2f} | – | – | – | recorded |")
    if smi:
        serial = sum(ms for _, ms in smi)
        print(f"| nvidia-smi latency alone, serial (sum of the recorded ms) | {serial:.2f} "
              f"| – | – | – | recorded |")
        if query:
            together = query[0] + max(follow, default=0)
            print(f"| nvidia-smi latency alone, follow-ups together (query + longest "
                  f"follow-up) | {together:.2f} | – | – | – | recorded |")
    instant = measure("hwsim run (instant shims) -- hwaccel detect",
                      [hwsim, "run", host, "--", hwaccel, "detect"], base_env, runs)
    print(row(instant))
    # The yardstick of issue 21: one `nvidia-smi -L` through the same shims.
    one_list = None
    if any(a == ["nvidia-smi", "-L"] for a, _ in timed):
        one_list = measure("hwsim run --latency -- nvidia-smi -L (one run, the yardstick)",
                           [hwsim, "run", "--latency", host, "--", "nvidia-smi", "-L"],
                           base_env, runs)
        print(row(one_list))
    for label, binary in [("hwaccel", hwaccel)] + others:
        # HWACCEL_NVML=0: the nvidia-smi path even where hwsim simulates NVML.
        for path, prefix in [("", []), (", nvidia-smi path", ["env", "HWACCEL_NVML=0"])]:
            r = measure(f"hwsim run --latency -- {label} detect{path} (recorded latencies)",
                        [hwsim, "run", "--latency", host, "--"] + prefix + [binary, "detect"],
                        base_env, runs)
            extra = ""
            if "median" in r and "median" in instant:
                extra = f"+{r['median'] - instant['median']:.1f} ms over instant shims"
            if one_list and "median" in r and "median" in one_list:
                extra += f"; {r['median'] / one_list['median']:.2f}x one nvidia-smi -L"
            print(row(r).rsplit("|", 2)[0] + f"| {extra} |")
    if one_list is None:
        return
    # The same inside one simulated host (bench/inside_latency.py): hwsim's tree
    # is written once, so the figures are the commands' own (issue 21's target:
    # detect at most 1.2x one nvidia-smi -L).
    print("\nInside one `hwsim run --latency` (commands interleaved, "
          f"{max(runs, 5)} rounds):\n")
    commands = ["nvidia-smi -L", f"{hwaccel} detect", f"HWACCEL_NVML=0 {hwaccel} detect"]
    commands += [f"HWACCEL_NVML=0 {binary} detect" for _, binary in others]
    helper = os.path.join(os.path.dirname(hwaccel), "hwaccel-nvml")
    if os.path.exists(helper):  # NVML's share of the NVML path: the helper alone
        commands.append(helper)
    inside = subprocess.run([hwsim, "run", "--latency", host, "--", "python3",
                             os.path.abspath("bench/inside_latency.py"), "--rounds",
                             str(max(runs, 5))] + commands, env=base_env, capture_output=True,
                            text=True)
    print(inside.stdout.strip() or f"(failed: {inside.stderr.strip()[-200:]})")


def percentile(values, q):
    """The q-th percentile (nearest rank) of a non-empty list."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q / 100 * len(ordered) + 0.5)) - 1))]


def run_overhead_section(hwsim, base_env, runs):
    """What `hwsim run HOST -- true` costs over `true` (issue 20: under 20 ms for
    dgx-h100). `true`, the warm run and the peer (util-linux's `unshare` making the
    same kinds of namespaces, with a procfs of its own) are interleaved round by round,
    so that the machine's load falls on all alike; the cold runs (a fresh cache folder
    each: the tree planned and written) and the runs without a cache come after."""
    print("\n## `hwsim run` overhead: `hwsim run dgx-h100 -- true` against `true`\n")
    host = "fixtures/hosts/dgx-h100.yaml"
    probe = subprocess.run([hwsim, "run", "-v", host, "--", "true"], env=base_env,
                           capture_output=True, text=True)
    if probe.returncode != 0 or "no private mount namespace" in probe.stderr:
        print(f"skipped: `hwsim run` cannot simulate the host here (exit {probe.returncode})")
        return
    cache = tempfile.mkdtemp(prefix="hwsim-bench-cache-", dir="/dev/shm"
                             if os.path.isdir("/dev/shm") else None)
    true = shutil.which("true") or "/bin/true"
    warm_env = dict(base_env, HWSIM_TREE_CACHE=os.path.join(cache, "warm"))
    scenarios = [("true", [true], base_env),
                 ("hwsim run dgx-h100 -- true, cache warm (tree mounted from it)",
                  [hwsim, "run", host, "--", true], warm_env)]
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "--mount", "--uts", "--pid", "--cgroup", "--fork",
                                   "--mount-proc", true], env=base_env).returncode == 0:
        scenarios.append(("peer: unshare --mount --uts --pid --cgroup --fork --mount-proc true",
                          [unshare, "--mount", "--uts", "--pid", "--cgroup", "--fork",
                           "--mount-proc", true], base_env))
    rounds = max(30, runs * 3)
    walls = {name: [] for name, _, _ in scenarios}
    run_once([hwsim, "run", host, "--", true], warm_env)  # fills the warm cache
    for _ in range(rounds):
        for name, argv, env in scenarios:
            wall, _, code = run_once(argv, env)
            if code == 0:
                walls[name].append(wall * 1000)
    for i in range(runs):
        env = dict(base_env, HWSIM_TREE_CACHE=os.path.join(cache, f"cold{i}"))
        wall, _, code = run_once([hwsim, "run", host, "--", true], env)
        if code == 0:
            walls.setdefault("hwsim run dgx-h100 -- true, cache cold (tree planned and written "
                             "to it)", []).append(wall * 1000)
        wall, _, code = run_once([hwsim, "run", host, "--", true],
                                 dict(base_env, HWSIM_TREE_CACHE="off"))
        if code == 0:
            walls.setdefault("hwsim run dgx-h100 -- true, no cache (tree written to tmpfs)",
                             []).append(wall * 1000)
    # Cold for this snapshot, but a variant of the same machine (GPU 0's free memory
    # changed by `hwsim mutate`) ran first in the same cache: the CPU topology layer
    # (src/host/tree_layers.h) is the variant's, only the rest of the tree is written.
    variant = os.path.join(cache, "variant.yaml")
    made = subprocess.run([hwsim, "mutate", host, "--fault", "free:cuda:0=40G", "-o", variant],
                          env=base_env, capture_output=True, text=True)
    for i in range(runs if made.returncode == 0 else 0):
        folder = os.path.join(cache, f"shared{i}")
        env = dict(base_env, HWSIM_TREE_CACHE=folder)
        run_once([hwsim, "run", variant, "--", true], env)
        wall, _, code = run_once([hwsim, "run", host, "--", true], env)
        if code == 0:
            walls.setdefault("hwsim run dgx-h100 -- true, cache cold for it after a variant "
                             "(GPU 0 mutated; CPU layer shared)", []).append(wall * 1000)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{rounds} interleaved rounds of the first rows; {runs} runs of the cold, "
          "shared-variant and no-cache rows. Wall-clock ms.\n")
    print("| scenario | runs | median | p90 | min | over `true` (median) | over `true` (p90) |")
    print("|---|---|---|---|---|---|---|")
    base = walls.get("true") or [float("nan")]
    for name, values in walls.items():
        if not values:
            print(f"| {name} | 0 | – | – | – | – | – |")
            continue
        med, p90 = statistics.median(values), percentile(values, 90)
        over = "" if name == "true" else f"+{med - statistics.median(base):.1f} ms"
        over90 = "" if name == "true" else f"+{p90 - percentile(base, 90):.1f} ms"
        print(f"| {name} | {len(values)} | {med:.2f} | {p90:.2f} | {min(values):.2f} | {over} | "
              f"{over90} |")
    shutil.rmtree(cache, ignore_errors=True)


def snapshot_costs_section(hwaccel, hwsim, base_env, runs):
    """Issue 37's other figures, each beside its floor: `hwaccel detect --host
    dgx-h100` against `true` (target: at most 3x), interleaved round by round; and one
    pass of `hwsim run HOST -- true` over every fixture host, with the tree cache cold
    (a fresh folder) and warm (target: under 3 s)."""
    print("\n## Snapshots: detection on one, and `hwsim run` over all of them\n")
    true = shutil.which("true") or "/bin/true"
    detect = [hwaccel, "detect", "--host", "fixtures/hosts/dgx-h100.yaml"]
    walls = {"true": [], "hwaccel detect --host dgx-h100": []}
    rounds = max(30, runs * 3)
    run_once(detect, base_env)
    for _ in range(rounds):
        for name, argv in (("true", [true]), ("hwaccel detect --host dgx-h100", detect)):
            wall, _, code = run_once(argv, base_env)
            if code == 0:
                walls[name].append(wall * 1000)
    base = statistics.median(walls["true"]) if walls["true"] else float("nan")
    print(f"{rounds} interleaved rounds, wall-clock ms.\n")
    print("| scenario | median | min | x `true` (target: detect at most 3x) |")
    print("|---|---|---|---|")
    for name, values in walls.items():
        if values:
            med = statistics.median(values)
            print(f"| {name} | {med:.2f} | {min(values):.2f} | {med / base:.1f}x |")
    hosts = sorted(f for f in os.listdir("fixtures/hosts") if f.endswith(".yaml"))
    probe = subprocess.run([hwsim, "run", "fixtures/hosts/dgx-h100.yaml", "--", true],
                           env=base_env, capture_output=True, text=True)
    if probe.returncode != 0:
        print(f"\n`hwsim run` over the fixtures: skipped (exit {probe.returncode})")
        return
    cache = tempfile.mkdtemp(prefix="hwsim-bench-pass-", dir="/dev/shm"
                             if os.path.isdir("/dev/shm") else None)
    env = dict(base_env, HWSIM_TREE_CACHE=cache)

    def one_pass():
        start, failed = time.perf_counter(), 0
        for h in hosts:
            _, _, code = run_once([hwsim, "run", os.path.join("fixtures/hosts", h), "--", true], env)
            failed += code != 0
        return time.perf_counter() - start, failed

    cold, cold_failed = one_pass()
    warm = [one_pass() for _ in range(3)]
    print(f"\n| one pass of `hwsim run HOST -- true` over the {len(hosts)} fixtures | seconds | "
          "runs that failed |")
    print("|---|---|---|")
    print(f"| tree cache cold (each tree planned and written) | {cold:.2f} | {cold_failed} |")
    print(f"| tree cache warm (median of 3 passes; target: under 3 s) | "
          f"{statistics.median(w for w, _ in warm):.2f} | {warm[0][1]} |")
    shutil.rmtree(cache, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build-bench", help="folder with hwaccel and hwsim")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--quick", action="store_true", help="3 runs, fewer fixture replays")
    ap.add_argument("--vulkan-prefix", default=os.environ.get("HWACCEL_BENCH_VULKAN_PREFIX", ""),
                    help="folder with vulkan-tools, libvulkan1 and mesa-vulkan-drivers unpacked "
                         "by dpkg -x (default: $HWACCEL_BENCH_VULKAN_PREFIX); without it the "
                         "Vulkan states use a vulkaninfo on PATH, if any")
    ap.add_argument("--latency-host", default="",
                    help="snapshot for the recorded-latency scenario (default: "
                         "fixtures/hosts/h200-firecracker.yaml, else a fixture with timed "
                         "nvidia-smi runs)")
    ap.add_argument("--compare-hwaccel", action="append", default=[], metavar="LABEL=PATH",
                    help="also run this hwaccel binary in the recorded-latency scenario")
    args = ap.parse_args()
    runs = 3 if args.quick else args.runs
    hwaccel = os.path.abspath(os.path.join(args.build, "hwaccel"))
    hwsim = os.path.abspath(os.path.join(args.build, "hwsim"))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)

    base_env = dict(os.environ)
    base_env.pop("NO_COLOR", None)
    tmp = tempfile.mkdtemp(prefix="hwaccel-bench-")
    empty_bin = os.path.join(tmp, "empty-bin")
    os.mkdir(empty_bin)
    # "Nothing installed": no vendor tool can be found on PATH.
    bare_env = dict(base_env, PATH=empty_bin)
    # vulkaninfo present, no Vulkan driver: the loader finds no ICD.
    no_driver_env = dict(base_env, VK_DRIVER_FILES="/nonexistent.json",
                         VK_ICD_FILENAMES="/nonexistent.json")
    hang_bin = os.path.join(tmp, "hang-bin")
    os.mkdir(hang_bin)
    fake_tool(hang_bin, "nvidia-smi", "exec sleep 30")
    hang_env = dict(base_env, PATH=hang_bin + ":" + base_env.get("PATH", "/usr/bin:/bin"))
    flood_bin = os.path.join(tmp, "flood-bin")
    os.mkdir(flood_bin)
    fake_tool(flood_bin, "nvidia-smi", "exec head -c 67108864 /dev/zero")
    flood_env = dict(base_env, PATH=flood_bin + ":" + base_env.get("PATH", "/usr/bin:/bin"))

    results = []
    print(f"# hwaccel benchmarks ({runs} runs each, median/min/max wall ms, peak RSS MiB)\n")
    print(f"machine: {os.cpu_count()} cpus, {os.uname().sysname} {os.uname().release}; "
          f"build: {args.build}\n")

    harness = measure("/bin/true (harness cost)", ["/bin/true"], base_env, runs)

    print("## Live detection and peers\n")
    print("| scenario | median | min | max | RSS MiB | vs lstopo |")
    print("|---|---|---|---|---|---|")
    peers = []
    lstopo = None
    if shutil.which("lstopo-no-graphics"):
        lstopo = measure("peer: lstopo-no-graphics --of xml", ["lstopo-no-graphics", "--of", "xml",
                                                               "-"], base_env, runs)
        peers.append(lstopo)
    if shutil.which("lspci"):
        peers.append(measure("peer: lspci -nn", ["lspci", "-nn"], base_env, runs))
    if shutil.which("lshw"):
        peers.append(measure("peer: lshw -json -C display", ["lshw", "-json", "-C", "display"],
                             base_env, runs))
    if shutil.which("inxi"):
        peers.append(measure("peer: inxi -G", ["inxi", "-G"], base_env, runs))
    # The Vulkan states: from a private prefix when given, else a vulkaninfo on
    # PATH (installed system-wide), else not measured (said so in the rows).
    llvmpipe_env = base_env if shutil.which("vulkaninfo") else None
    asked_env = None
    if not shutil.which("vulkaninfo"):
        no_driver_env = None
    where = "vulkaninfo on PATH"
    if args.vulkan_prefix:
        envs = vulkan_envs(os.path.abspath(args.vulkan_prefix), base_env, empty_bin, tmp)
        if envs:
            no_driver_env, llvmpipe_env, asked_env = envs
            where = "prefix " + args.vulkan_prefix
    print(f"Vulkan states: {where if no_driver_env else 'not measured (no vulkaninfo)'}\n")
    if llvmpipe_env:
        vulkaninfo = shutil.which("vulkaninfo", path=llvmpipe_env["PATH"])
        peers.append(measure("peer: vulkaninfo --summary (llvmpipe)",
                             [vulkaninfo, "--summary"], llvmpipe_env, runs))
    if asked_env:
        peers.append(measure("peer: vulkaninfo --summary (llvmpipe + another manifest)",
                             [vulkaninfo, "--summary"], asked_env, runs))
    live = [measure("hwaccel detect, nothing installed", [hwaccel, "detect"], bare_env, runs),
            measure("hwaccel detect --json, nothing installed", [hwaccel, "detect", "--json"],
                    bare_env, runs)]
    if no_driver_env:
        live.append(measure("hwaccel detect, vulkaninfo without a driver", [hwaccel, "detect"],
                            no_driver_env, runs))
    if llvmpipe_env:
        live.append(measure("hwaccel detect, llvmpipe", [hwaccel, "detect"], llvmpipe_env, runs))
        live.append(measure("hwaccel detect --json, llvmpipe", [hwaccel, "detect", "--json"],
                            llvmpipe_env, runs))
    if asked_env:
        live.append(measure("hwaccel detect, llvmpipe + a manifest it must ask vulkaninfo about",
                            [hwaccel, "detect"], asked_env, runs))
    for r in [harness] + live + peers:
        print(row(r, lstopo))
    results += live + peers

    print("\n## Failing tools (budget: the timeout plus a little)\n")
    print("| scenario | median | min | max | RSS MiB | |")
    print("|---|---|---|---|---|---|")
    hung = measure("hwaccel detect --timeout 1, nvidia-smi hangs", [hwaccel, "detect", "--timeout",
                                                                    "1"], hang_env,
                   max(3, runs // 3))
    flood = measure("hwaccel detect, nvidia-smi prints 64 MiB", [hwaccel, "detect"], flood_env,
                    max(3, runs // 3))
    for r in (hung, flood):
        print(row(r))
    if "median" in hung:
        print(f"\nhung tool: {hung['median'] - 1000:.1f} ms over the 1 s timeout (median)")

    print("\n## Replays\n")
    print("| scenario | median | min | max | RSS MiB | MB/s loaded |")
    print("|---|---|---|---|---|---|")
    fixtures = sorted(f for f in os.listdir("fixtures/hosts") if f.endswith(".yaml"))
    if args.quick:
        fixtures = [f for f in fixtures if f in ("gx10.yaml", "dgx-h100.yaml", "mi300x-8.yaml")]
    for f in fixtures:
        path = os.path.join("fixtures/hosts", f)
        r = measure(f"hwsim replay {f}", [hwsim, "replay", path], base_env, runs)
        if "median" in r:
            mb = os.path.getsize(path) / 1e6
            r_row = row(r).rsplit("|", 2)[0] + f"| {mb / (r['median'] / 1000):.0f} |"
            print(r_row)
        else:
            print(row(r))
        results.append(r)

    synth = os.path.join(tmp, "synth-8xh100.yaml")
    made = subprocess.run([hwsim, "synth", "--preset", "dgx-h100", "-o", synth],
                          capture_output=True, text=True)
    if made.returncode == 0:
        r = measure("hwsim replay (synthesised 8x H100)", [hwsim, "replay", synth], base_env, runs)
        print(row(r))
    else:
        print(f"| hwsim synth --preset dgx-h100 | – | – | – | – | not available: "
              f"{made.stderr.strip()[:80]} |")

    others = [tuple(c.split("=", 1)) if "=" in c else (c, c) for c in args.compare_hwaccel]
    recorded_latency_section(hwsim, hwaccel, [(l, os.path.abspath(p)) for l, p in others],
                             latency_host(args.latency_host), base_env, runs)
    run_overhead_section(hwsim, base_env, runs)
    snapshot_costs_section(hwaccel, hwsim, base_env, runs)

    plan = [hwaccel, "plan", "--host", "fixtures/hosts/dgx-h100.yaml", "--model", "Llama-3-70B"]
    probe = subprocess.run(plan, capture_output=True, text=True)
    print("\n## Planning\n")
    print("| scenario | median | min | max | RSS MiB | |")
    print("|---|---|---|---|---|---|")
    if probe.returncode in (0, 10):
        print(row(measure("hwaccel plan Llama-3-70B on 8x H100", plan, base_env, runs,
                          ok_codes=(0, 10))))
    else:
        print(f"| hwaccel plan | – | – | – | – | not available (exit {probe.returncode}) |")

    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
