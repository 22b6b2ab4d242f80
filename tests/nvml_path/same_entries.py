#!/usr/bin/env python3
"""ctest nvml_path.same_entries: on every NVIDIA fixture, under `hwsim run` with the
snapshot-backed libnvidia-ml.so.1 (nvml/, hwsim_nvml), the CUDA probe's NVML path
(hwaccel-nvml) and its nvidia-smi path (HWACCEL_NVML=0) give the same CUDA entries.
Only what names the path may differ: api, provenance, memory.source and the links'
source; and where NVML answered, no provenance or link source names an nvidia-smi run.

usage: same_entries.py HWSIM HWACCEL SOURCE_DIR        exit 77: cannot simulate here
"""
import glob
import json
import os
import subprocess
import sys

PATH_FIELDS = ("api", "provenance")


SPLIT = "=== hwaccel-nvml same_entries ==="


def detect_both(hwsim, hwaccel, fixture):
    """Both paths in one hwsim run (its tree is written once): the NVML path's
    report, then the nvidia-smi path's (HWACCEL_NVML=0)."""
    script = f'"$0" detect --json; echo "{SPLIT}"; HWACCEL_NVML=0 "$0" detect --json'
    r = subprocess.run([hwsim, "run", fixture, "--", "sh", "-c", script, hwaccel],
                       capture_output=True, text=True, timeout=120)
    parts = r.stdout.split(SPLIT + "\n")
    if len(parts) != 2:
        raise ValueError(f"exit {r.returncode}: {r.stderr[-300:]}")
    return json.loads(parts[0]), json.loads(parts[1])


def cuda_entries(report):
    out = []
    for d in report.get("devices", []):
        if d.get("backend") != "cuda":
            continue
        d = {k: v for k, v in d.items() if k not in PATH_FIELDS}
        if isinstance(d.get("memory"), dict):
            d["memory"] = {k: v for k, v in d["memory"].items() if k != "source"}
        out.append(d)
    return out


def links_of(report):
    """The links between GPUs, less the source that names the path."""
    return sorted(({k: v for k, v in l.items() if k != "source"} for l in report.get("links", [])),
                  key=lambda l: json.dumps(l, sort_keys=True))


def nvidia_fixtures(src):
    for path in sorted(glob.glob(os.path.join(src, "fixtures/hosts/*.yaml"))):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        # nvidia-smi's query answered (exit 0 on the line after its argv): the
        # fixtures where both paths can speak.
        at = text.find('"--query-gpu=index,')
        if at >= 0 and text[text.find("\n", at) + 1:].startswith("    exit: 0\n"):
            yield path


def main():
    hwsim, hwaccel, src = sys.argv[1:4]
    # -v: hwsim run says "NVML is simulated" only when asked to say what it covers.
    probe = subprocess.run([hwsim, "run", "-v",
                            os.path.join(src, "fixtures/hosts/h200-firecracker.yaml"),
                            "--", "/bin/true"], capture_output=True, text=True)
    if probe.returncode != 0 or "no private mount namespace" in probe.stderr:
        print("skipped: hwsim run cannot simulate a host here:", probe.stderr.strip()[:200])
        return 77
    if "NVML is simulated" not in probe.stderr:
        print("skipped: no simulated libnvidia-ml.so.1 beside hwsim:", probe.stderr.strip()[:200])
        return 77
    failures, compared, via_nvml = [], 0, 0
    for fixture in nvidia_fixtures(src):
        name = os.path.basename(fixture)
        try:
            ra, rb = detect_both(hwsim, hwaccel, fixture)
        except ValueError as e:
            failures.append(f"{name}: no JSON reports: {e}")
            continue
        ea, eb = cuda_entries(ra), cuda_entries(rb)
        compared += 1
        apis = {d.get("api") for d in ra.get("devices", []) if d.get("backend") == "cuda"}
        via_nvml += "nvml" in apis
        if "nvml" in {d.get("api") for d in rb.get("devices", [])}:
            failures.append(f"{name}: HWACCEL_NVML=0 still answered through NVML")
        la, lb = links_of(ra), links_of(rb)
        if la != lb:
            failures.append(f"{name}: links differ: NVML {json.dumps(la)[:300]} vs "
                            f"nvidia-smi {json.dumps(lb)[:300]}")
        # When NVML answered, nothing of the report comes from an nvidia-smi run.
        if "nvml" in apis:
            smi = sorted({p for d in ra.get("devices", []) if d.get("backend") == "cuda"
                          for p in d.get("provenance", []) if "nvidia-smi" in p} |
                         {l.get("source", "") for l in ra.get("links", [])
                          if "nvidia-smi" in l.get("source", "")})
            if smi:
                failures.append(f"{name}: the NVML path still ran {smi}")
        if ea != eb:
            for i, (x, y) in enumerate(zip(ea, eb)):
                if x != y:
                    keys = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
                    failures.append(f"{name}: entry {i} differs in {keys}: NVML "
                                    f"{json.dumps({k: x.get(k) for k in keys})[:300]} vs "
                                    f"nvidia-smi {json.dumps({k: y.get(k) for k in keys})[:300]}")
                    break
            else:
                failures.append(f"{name}: {len(ea)} entries through NVML, {len(eb)} through nvidia-smi")
    print(f"{compared} NVIDIA fixtures compared, {via_nvml} answered through NVML")
    for f in failures:
        print("FAIL", f)
    if compared == 0 or via_nvml == 0:
        print("FAIL: the NVML path answered for no fixture")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
