#!/usr/bin/env python3
"""Runs NVML clients under `hwsim run` on every NVIDIA fixture host and checks what
they enumerate (names, UUIDs, memory, bus ids, MIG instances, NVLink peers; init
failures on hosts without a working driver, no library at all on hosts without NVIDIA's
software) against `hwaccel detect --host --json`, and what they monitor (temperature,
power, clock, utilisation, processes) against the figures the host recorded.

compare.py HWSIM HWACCEL FIXTURES_DIR CLIENT [CLIENT...]
Exit 0: all agree; 1: a difference (printed); 77: no private mount namespace here.
"""
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys

NVLINK_MAX_LINKS = 18
NOT_SUPPORTED = 3
# What the real libnvidia-ml's nvmlInit returns where nvidia-smi failed as recorded.
DRIVER_NOT_LOADED, LIB_RM_VERSION_MISMATCH = 9, 18


def nvml_bus_id(bus):  # "0000:1b:00.0" -> "00000000:1B:00.0", as NVML prints it
    domain, rest = bus.split(":", 1)
    return "%08X:%s" % (int(domain, 16), rest.upper())


def expected_lines(detect):
    cuda = next(b for b in detect["backends"] if b["name"] == "cuda")
    if cuda["status"] != "ready":
        reason = cuda.get("reason") or {}
        if "nvidia-smi not found" in reason.get("detail", ""):
            return ["dlopen failed"]  # no NVIDIA software: no library to load
        if "version mismatch" in reason.get("detail", ""):
            return ["init %d" % LIB_RM_VERSION_MISMATCH]
        return ["init %d" % DRIVER_NOT_LOADED]
    devices = [d for d in detect["devices"] if d["backend"] == "cuda"]
    whole = [d for d in devices if not d.get("partition") and d["status"] == "ready"]
    lines = ["init 0", "driver " + whole[0]["driver_version"], "count %d" % len(whole)]
    position = {d["physical_id"]: i for i, d in enumerate(whole)}
    for i, d in enumerate(whole):
        gpu = "gpu %d" % i

        def memory(what, m):
            if m["kind"] == "unified":  # GB10: the real library has no FB memory to give
                return "%s memory error 3" % what
            return "%s memory %d %d" % (what, m["total_bytes"], m["free_bytes"])

        lines += [gpu + " name " + d["name"], gpu + " uuid " + d["uuid"],
                  gpu + " bus " + nvml_bus_id(d["pci"]["bus_id"]), memory(gpu, d["memory"])]
        migs = [m for m in devices
                if m.get("partition") and m["partition"]["parent_index"] == d["index"]]
        instances = {}  # GPU instance id -> [profile, MiB, compute instances]
        for n, m in enumerate(migs):
            what = "%s mig %d" % (gpu, n)
            lines += [what + " name " + m["name"], what + " uuid " + m["uuid"],
                      memory(what, m["memory"])]
            # hwaccel names the GPU instance in the memory's source ("-q ..., GPU instance 2");
            # its first compute instance carries the instance's memory.
            gi = re.search(r"GPU instance (\d+)", m["memory"].get("source") or "")
            if gi:
                profile = re.sub(r"^\d+c\.", "", m["partition"]["profile"])  # 1c.3g.40gb
                entry = instances.setdefault(int(gi.group(1)), [profile, None, 0])
                if entry[1] is None and m["memory"].get("total_bytes"):
                    entry[1] = m["memory"]["total_bytes"] >> 20
                entry[2] += 1
        lines += sorted("%s gi %d profile %s memory %s compute %d" % (gpu, gi, p, mib, c)
                        for gi, (p, mib, c) in instances.items())
        peers = []
        for link in detect.get("links", []):
            if link["kind"] != "nvlink":
                continue
            for a, b in ((link["a"], link["b"]), (link["b"], link["a"])):
                if a == d["physical_id"] and b in position:
                    peers.append((position[b], link["lanes"]))
        peers.sort()
        if sum(lanes for _, lanes in peers) > NVLINK_MAX_LINKS:
            # Every pair "NV18": an NVSwitch fabric, each link ends at a switch.
            width = min(max(lanes for _, lanes in peers), NVLINK_MAX_LINKS)
            lines += ["%s nvlink %d switch" % (gpu, n) for n in range(width)]
        else:
            n = 0
            for peer, lanes in peers:
                bus = nvml_bus_id(whole[peer]["pci"]["bus_id"])
                for _ in range(lanes):
                    lines.append("%s nvlink %d gpu %s" % (gpu, n, bus))
                    n += 1
    lines.append("shutdown 0")
    return lines


# The figures of the fixture hosts that recorded them, read by a person from the
# fixture's own recorded `--query-gpu=<every field>` row and `--query-compute-apps`
# (fixtures/hosts/h200-load.yaml: temperature.gpu 52, power.draw.instant 626.26 W,
# clocks.current.sm 1980 MHz, utilization.gpu 100 %; pids 10291, 10293, 10309 with
# 2566, 1542 and 28234 MiB). Other hosts recorded none: each is NOT_SUPPORTED, never
# a made-up number, and no process runs.
RECORDED = {
    "h200-load.yaml": {
        "gpu 0": ["temperature 0 52", "power 0 626260", "sm-clock 0 1980", "utilization 0 100",
                  "processes 0 3", "process 10291 2566", "process 10293 1542",
                  "process 10309 28234"],
    },
}


def expected_monitor(want, fixture):
    """The monitoring lines of each whole GPU in `want` (expected_lines)."""
    out = []
    recorded = RECORDED.get(fixture, {})
    for line in want:
        if line.startswith("gpu ") and line.split(" ")[2] == "name":
            gpu = " ".join(line.split(" ")[:2])
            if gpu in recorded:
                out += ["monitor %s %s" % (gpu, what) for what in recorded[gpu]]
                continue
            out += ["monitor %s %s %d" % (gpu, what, NOT_SUPPORTED)
                    for what in ("temperature", "power", "sm-clock", "utilization")]
            out.append("monitor %s processes 0 0" % gpu)
    return out


def facts(output):
    """A client's lines less those hwaccel has no counterpart for; each GPU's GPU
    instance lines sorted, after its MIG devices (the clients list them by profile)."""
    skip = ("error-string ", "cuda ", "mig-table ", "monitor ")
    lines = [l for l in output.splitlines() if l and not l.startswith(skip)]
    lines = ["dlopen failed" if l.startswith("dlopen failed") else l for l in lines]
    out = [l for l in lines if " gi " not in l]
    for gpu in sorted({l.split(" gi ")[0] for l in lines if " gi " in l}):
        own = sorted(l for l in lines if l.startswith(gpu + " gi "))
        last = max((i for i, l in enumerate(out) if l.startswith(gpu + " mig ")), default=None)
        at = len(out) if last is None else last + 1
        out[at:at] = own
    return out


def check(hwsim, hwaccel, fixture, clients):
    name = os.path.basename(fixture)
    detect = json.loads(subprocess.run([hwaccel, "detect", "--host", fixture, "--json"],
                                       capture_output=True, text=True, check=True).stdout)
    want = expected_lines(detect)
    script = "; ".join('"$%d"; echo "<<end>>"' % (n + 1) for n in range(len(clients)))
    run = subprocess.run([hwsim, "run", fixture, "--", "/bin/sh", "-c", script, "sh"] + clients,
                         capture_output=True, text=True, timeout=120)
    if "no private mount namespace" in run.stderr:
        return name, None
    outputs = run.stdout.split("<<end>>\n")[:len(clients)]
    problems = []
    if run.returncode != 0 or len(outputs) != len(clients):
        problems.append("hwsim run exited %d: %s" % (run.returncode, run.stderr[-2000:]))
    cuda_lines, table_lines = set(), set()
    for client, output in zip(clients, outputs):
        got = facts(output)
        cuda_lines.add(tuple(l for l in output.splitlines() if l.startswith("cuda ")))
        # The profile table and the instances' placements: hwaccel has no counterpart,
        # so the two clients (two bindings of the structs) must agree with each other.
        table_lines.add(tuple(l for l in output.splitlines() if l.startswith("mig-table ")))
        if got != want:
            diff = [("- " + w, "+ " + g) for w, g in zip(want + [""] * len(got), got + [""] * len(want))
                    if w != g][:8]
            problems.append("%s differs from hwaccel detect:\n%s" % (
                os.path.basename(client), "\n".join("  %s\n  %s" % p for p in diff)))
        # Monitoring (both clients ask what gpustat and nvitop ask): the recorded
        # figures and processes, or NOT_SUPPORTED where the host recorded none.
        monitor = [l for l in output.splitlines() if l.startswith("monitor ")]
        expected = expected_monitor(want, name)
        if monitor != expected:
            problems.append("%s monitoring differs:\n  %s" % (
                os.path.basename(client), "\n  ".join(sorted(set(monitor) ^ set(expected)))))
    if len(cuda_lines) > 1:
        problems.append("the clients disagree on the CUDA driver version: %s" % cuda_lines)
    if len(table_lines) > 1:
        a, b = list(table_lines)[:2]
        diff = [(x, y) for x, y in zip(a + ("",) * len(b), b + ("",) * len(a)) if x != y][:4]
        problems.append("the clients disagree on the MIG profiles:\n%s" %
                        "\n".join("  %s\n  %s" % d for d in diff))
    if any(" wrong" in l for t in table_lines for l in t):
        problems.append("a GPU or compute instance names the wrong parent")
    return name, problems


def main():
    hwsim, hwaccel, fixtures, clients = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    hosts = []
    for path in sorted(glob.glob(os.path.join(fixtures, "*.yaml"))):
        expected = path[:-len(".yaml")] + ".expected/detect.json"
        if not os.path.exists(expected):
            continue
        detect = json.load(open(expected))
        cuda = next((b for b in detect["backends"] if b["name"] == "cuda"), None)
        nvidia = any(d["backend"] == "cuda" for d in detect["devices"])
        if cuda and (nvidia or cuda["status"] == "ready"):
            hosts.append(path)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for name, problems in pool.map(lambda h: check(hwsim, hwaccel, h, clients), hosts):
            if problems is None:
                print("skipped: no private mount namespace here")
                return 77
            print("%-20s %s" % (name, "ok" if not problems else "FAILED"))
            for p in problems:
                print("  " + p.replace("\n", "\n  "))
            failed += bool(problems)
    print("%d of %d NVIDIA fixture hosts agree" % (len(hosts) - failed, len(hosts)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
