#!/usr/bin/env python3
"""Record, then replay, what a monitoring agent reads through NVML.

`hwaccel detect --record` runs hwaccel-nvml, which asks NVML every monitoring
getter (temperature, power and its limits, clocks, utilisation, performance
state, PCIe link, clock event reasons, ECC mode, processes) and keeps its
answers in the snapshot. Here the host recorded is a simulated one (h200-load:
an H200 recorded under load, whose figures the simulated libnvidia-ml answers),
so what the recording must hold is known; then an NVML client on the recording
must read the same figures as on the host it was recorded from, although the
recording holds no nvidia-smi figures at all (only hwaccel-nvml's document).

record_roundtrip.py HWSIM HWACCEL FIXTURES_DIR NVML_CLIENT
Exit 0: the same; 1: a difference (printed); 77: no private mount namespace here.
"""
import json
import os
import subprocess
import sys
import tempfile

import yaml


def run(hwsim, host, argv):
    p = subprocess.run([hwsim, "run", host, "--"] + argv, capture_output=True, text=True,
                       timeout=120)
    if "no private mount namespace" in p.stderr:
        sys.exit(77)
    return p


def monitor_lines(out):
    return [l for l in out.splitlines() if l.startswith("monitor ")]


def main(argv):
    hwsim, hwaccel, fixtures, client = argv[1:5]
    host = os.path.join(fixtures, "h200-load.yaml")
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        recording = os.path.join(tmp, "recorded.yaml")
        p = run(hwsim, host, [hwaccel, "detect", "--record", recording])
        if p.returncode != 0 or not os.path.exists(recording):
            print("detect --record failed (%d): %s" % (p.returncode, p.stderr[-400:]))
            return 1
        with open(recording) as f:
            snapshot = yaml.safe_load(f)
        tools = snapshot.get("tools") or []
        docs = [t for t in tools if os.path.basename(str((t.get("argv") or [""])[0])) ==
                "hwaccel-nvml"]
        if len(docs) != 1:
            bad.append("%d hwaccel-nvml runs recorded, want 1" % len(docs))
        else:
            doc = json.loads(docs[0].get("stdout") or docs[0].get("out") or "{}")
            cells = (doc.get("devices") or [{}])[0].get("monitor") or {}
            want = {"temperature.gpu": "52", "utilization.gpu": "100", "clocks.current.sm": "1980",
                    "pstate": "P0"}
            for field, cell in want.items():
                if cells.get(field) != cell:
                    bad.append("recorded %s %r, want %r" % (field, cells.get(field), cell))
            pids = [p.get("pid") for p in (doc.get("devices") or [{}])[0].get("processes") or []]
            if pids != [10291, 10293, 10309]:
                bad.append("recorded processes %s, want the three of the load" % pids)
        queries = [t["argv"] for t in tools if os.path.basename(str(t["argv"][0])) == "nvidia-smi"
                   and any(a.startswith("--query-gpu=") for a in t["argv"]) and
                   any("temperature" in a for a in t["argv"])]
        if queries:
            bad.append("the recording holds nvidia-smi's figures too (%s): not a test of "
                       "hwaccel-nvml's" % queries[0][1][:40])
        original = monitor_lines(run(hwsim, host, [client]).stdout)
        replayed = monitor_lines(run(hwsim, recording, [client]).stdout)
        if not original or any(" temperature 0 52" not in l for l in original[:1]):
            bad.append("the client on h200-load reads %s, want temperature 52" % original[:1])
        if replayed != original:
            diff = [(a, b) for a, b in zip(original, replayed) if a != b]
            bad.append("replayed %d lines, original %d; first difference %s" %
                       (len(replayed), len(original), diff[:1] or "(lengths)"))
    for b in bad:
        print("DIFFER:", b)
    if not bad:
        print("the recording replays the %d figures and processes the client read" %
              len(original))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
