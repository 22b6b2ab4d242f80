#!/usr/bin/env python3
"""Runs CUDA driver API clients under `hwsim run` on every NVIDIA fixture host and
checks what they see through the simulated libcuda.so.1 against `hwaccel detect
--host --json`: the C client making Ollama's discovery calls, a reserve run
(allocations until CUDA_ERROR_OUT_OF_MEMORY), CUDA_VISIBLE_DEVICES orders, and
Debian's Numba (numba.cuda.detect(), numba.cuda.gpus, get_memory_info()) when
python3-numba is installed.

compare.py HWSIM HWACCEL FIXTURES_DIR CLIENT NUMBA_SCRIPT
Exit 0: all agree; 1: a difference (printed); 77: no private mount namespace here.
"""
import concurrent.futures
import glob
import json
import os
import subprocess
import sys

NO_DEVICE, SYSTEM_DRIVER_MISMATCH, OUT_OF_MEMORY = 100, 803, 2
GIB = 1 << 30
# Debian's interpreter: python3-numba is installed for it (a `python3` earlier on PATH,
# e.g. pyenv's, does not see Debian's modules).
DEBIAN_PYTHON = "/usr/bin/python3"


def cuda_devices(detect):
    """The CUDA devices in ordinal order with CUDA_VISIBLE_DEVICES unset: whole GPUs
    in bus order (every fixture host has one model of GPU, so FASTEST_FIRST is bus
    order), a GPU in MIG mode replaced by its first MIG device, one MIG device at most."""
    devices = [d for d in detect["devices"] if d["backend"] == "cuda"]
    whole = sorted((d for d in devices if not d.get("partition") and d["status"] == "ready"),
                   key=lambda d: d["pci"]["bus_id"])
    out, mig_taken = [], False
    for d in whole:
        migs = [m for m in devices
                if m.get("partition") and m["partition"]["parent_index"] == d["index"]]
        if not migs:
            out.append(d)
        elif not mig_taken:
            out.append(migs[0])
            mig_taken = True
    return out


NO_LIBRARY = "dlopen failed"  # a host without NVIDIA's software has no libcuda.so.1


def init_code(detect):
    cuda = next(b for b in detect["backends"] if b["name"] == "cuda")
    if cuda["status"] == "ready":
        return 0
    if "nvidia-smi not found" in (cuda.get("reason") or {}).get("detail", ""):
        return NO_LIBRARY
    if "version mismatch" in (cuda.get("reason") or {}).get("detail", ""):
        return SYSTEM_DRIVER_MISMATCH
    return NO_DEVICE


def hexid(uuid):
    return uuid.split("-", 1)[1].lower() if uuid and uuid[:4] in ("GPU-", "MIG-") else uuid


def run(hwsim, fixture, argv, env=""):
    command = ["/bin/sh", "-c", '%s "$@"' % env, "sh"] + argv
    return subprocess.run([hwsim, "run", fixture, "--"] + command, capture_output=True, text=True,
                          timeout=180)


def check_client(hwsim, fixture, client, devices, code):
    problems = []
    got = run(hwsim, fixture, [client])
    lines = got.stdout.splitlines()
    if code == NO_LIBRARY:
        if lines[:1] != [NO_LIBRARY]:
            problems.append("client: want %r, got %s" % (NO_LIBRARY, lines[:1] or got.stderr[-300:]))
        return problems
    if code:
        if not lines or not lines[0].startswith("init %d " % code):
            problems.append("client: want init %d, got %s" % (code, lines[:1] or got.stderr[-300:]))
        return problems
    want = ["init 0 CUDA_SUCCESS", "count %d" % len(devices)]
    for i, d in enumerate(devices):
        cc = d["compute_class"][3:]
        m = d["memory"]
        want += ["gpu %d name %s" % (i, d["name"]), "gpu %d cc %s.%s" % (i, cc[:-1], cc[-1]),
                 "gpu %d integrated %d" % (i, m["kind"] == "unified"),
                 "gpu %d total %d" % (i, m["total_bytes"]),
                 "gpu %d bus %s" % (i, d["pci"]["bus_id"].upper()),
                 "gpu %d uuid %s" % (i, hexid(d["uuid"])),
                 "gpu %d meminfo %d %d" % (i, m["free_bytes"], m["total_bytes"])]
    want += ["procaddress cuMemAlloc 0 v2", "procaddress missing 500"]
    have = [l for l in lines if not l.startswith("driver ")]
    if have != want:
        diff = [(w, h) for w, h in zip(want + [""] * len(have), have + [""] * len(want)) if w != h]
        problems.append("client differs from hwaccel detect:\n" +
                        "\n".join("  - %s\n  + %s" % p for p in diff[:6]))
    return problems


def check_reserve(hwsim, fixture, client, devices):
    got = run(hwsim, fixture, [client, "reserve"])
    lines = [l for l in got.stdout.splitlines() if l.startswith("gpu ")]
    problems = []
    if len(lines) != len(devices):
        return ["reserve: %d devices, want %d: %s" % (len(lines), len(devices), got.stdout[-300:])]
    for i, (line, d) in enumerate(zip(lines, devices)):
        f = line.split()
        v = dict(zip(f[2::2], f[3::2]))
        free = d["memory"]["free_bytes"]
        chunks = free // GIB
        want = {"free": free, "chunks": chunks, "stop": OUT_OF_MEMORY, "left": free - chunks * GIB,
                "rest": 0, "more": OUT_OF_MEMORY, "after": (free - chunks * GIB) % 512,
                "back": free, "bad": 0}
        have = {k: int(v.get(k, -1)) for k in want}
        if have != want:
            problems.append("reserve gpu %d: want %s, got %s" % (i, want, have))
    return problems


def check_visible(hwsim, fixture, client, devices):
    """CUDA_VISIBLE_DEVICES reorders, ends at an invalid entry, takes UUID prefixes."""
    if len(devices) < 2:
        return []
    problems = []
    cases = {"1,0": [1, 0], "0,-1,1": [0], "%s,0" % devices[1]["uuid"][:12]: [1, 0], "": []}
    for value, order in cases.items():
        got = run(hwsim, fixture, [client], "CUDA_VISIBLE_DEVICES='%s'" % value)
        lines = got.stdout.splitlines()
        names = [l.split(" uuid ")[1] for l in lines if " uuid " in l]
        want = [hexid(devices[k]["uuid"]) for k in order]
        if not order:
            if not lines or not lines[0].startswith("init %d " % NO_DEVICE):
                problems.append("CUDA_VISIBLE_DEVICES='%s': want init %d, got %s" %
                                (value, NO_DEVICE, lines[:1]))
        elif names != want:
            problems.append("CUDA_VISIBLE_DEVICES='%s': want %s, got %s" % (value, want, names))
    return problems


def check_numba(hwsim, fixture, script, devices, code):
    got = run(hwsim, fixture, [DEBIAN_PYTHON, script])
    try:
        out = json.loads(got.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return ["numba: no answer: %s" % got.stderr[-500:]]
    if code == NO_LIBRARY:
        # Numba: "CUDA driver library cannot be found" (its own wording varies by release).
        if out.get("available") or out.get("gpus"):
            return ["numba: want no CUDA driver, got %s" % out]
        return []
    if code:
        if out.get("available") or "(%d)" % code not in out.get("report", "") + out.get("error", ""):
            return ["numba: want init error %d, got %s" % (code, out)]
        return []
    problems = []
    if "error" in out:
        return ["numba: %s" % out["error"]]
    if "Found %d CUDA devices" % len(devices) not in out["report"]:
        problems.append("numba detect(): %s" % out["report"][:300])
    want = []
    for i, d in enumerate(devices):
        cc = d["compute_class"][3:]
        bus = [int(x, 16) for x in d["pci"]["bus_id"].replace(".", ":").split(":")[:3]]
        want.append({"id": i, "name": d["name"], "cc": [int(cc[:-1]), int(cc[-1])], "pci": bus,
                     "uuid": "GPU-" + hexid(d["uuid"]), "free": d["memory"]["free_bytes"],
                     "total": d["memory"]["total_bytes"]})
    if out["gpus"] != want:
        problems.append("numba.cuda.gpus differ:\n  want %s\n  got  %s" % (want, out["gpus"]))
    return problems


def check(hwsim, hwaccel, fixture, client, script):
    detect = json.loads(subprocess.run([hwaccel, "detect", "--host", fixture, "--json"],
                                       capture_output=True, text=True, check=True).stdout)
    probe = run(hwsim, fixture, ["true"])
    if "no private mount namespace" in probe.stderr:
        return os.path.basename(fixture), None
    devices, code = cuda_devices(detect), init_code(detect)
    problems = check_client(hwsim, fixture, client, devices, code)
    if not code:
        problems += check_reserve(hwsim, fixture, client, devices)
        problems += check_visible(hwsim, fixture, client, devices)
    if script:
        problems += check_numba(hwsim, fixture, script, devices, code)
    return os.path.basename(fixture), problems


def main():
    hwsim, hwaccel, fixtures, client, script = sys.argv[1:6]
    if subprocess.run([DEBIAN_PYTHON, "-c", "import numba.cuda"], capture_output=True).returncode:
        print("python3-numba is not installed (ci/setup installs it): Numba is not checked")
        script = None
    hosts = []
    for path in sorted(glob.glob(os.path.join(fixtures, "*.yaml"))):
        expected = path[:-len(".yaml")] + ".expected/detect.json"
        if not os.path.exists(expected):
            continue
        detect = json.load(open(expected))
        cuda = next((b for b in detect["backends"] if b["name"] == "cuda"), None)
        if cuda and (any(d["backend"] == "cuda" for d in detect["devices"]) or
                     cuda["status"] == "ready"):
            hosts.append(path)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for name, problems in pool.map(lambda h: check(hwsim, hwaccel, h, client, script), hosts):
            if problems is None:
                print("skipped: no private mount namespace here")
                return 77
            print("%-22s %s" % (name, "ok" if not problems else "FAILED"))
            for p in problems:
                print("  " + p.replace("\n", "\n  "))
            failed += bool(problems)
    print("%d of %d NVIDIA fixture hosts agree" % (len(hosts) - failed, len(hosts)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
