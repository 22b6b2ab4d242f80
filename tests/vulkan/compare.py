#!/usr/bin/env python3
"""Runs Debian's real `vulkaninfo --summary` and a small Vulkan client (through the
real loader, libvulkan.so.1) under `hwsim run` on every fixture host with Vulkan
devices, and on the hosts without a Vulkan driver, and checks what they see
through the simulated driver (vulkan/) against `hwaccel detect --host --json`:
names, vendor and device ids, device types and memory heaps; device creation
succeeding and submitted work failing with VK_ERROR_DEVICE_LOST. Hosts without a
driver must fail as a real loader with none does (VK_ERROR_INCOMPATIBLE_DRIVER,
"Found no drivers!").

compare.py HWSIM HWACCEL FIXTURES_DIR CLIENT
Exit 0: all agree; 1: a difference (printed); 77: no private mount namespace here.
"""
import concurrent.futures
import glob
import json
import os
import subprocess
import sys

INCOMPATIBLE_DRIVER, DEVICE_LOST, OUT_OF_DEVICE_MEMORY = -9, -4, -2
TYPES = {"discrete": "PHYSICAL_DEVICE_TYPE_DISCRETE_GPU", "cpu": "PHYSICAL_DEVICE_TYPE_CPU",
         "integrated": "PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU", "other": "PHYSICAL_DEVICE_TYPE_OTHER"}
SCRIPT = ('v=$(command -v vulkaninfo); echo "path $v"; '
          'if [ -n "$v" ]; then vulkaninfo --summary 2>&1; echo "vulkaninfo-exit $?"; fi; '
          'echo "== client"; "$1"; echo "client-exit $?"')


def vulkan_devices(detect):
    return sorted((d for d in detect["devices"] if d["backend"] == "vulkan"),
                  key=lambda d: d["index"])


def kind(d):
    if d["type"] == "cpu" or d["memory"]["kind"] == "host":
        return "cpu"
    if d["memory"]["kind"] == "unified":
        return "integrated"
    return "other" if d["type"] == "other" else "discrete"


def want_heaps(detect, d):
    """Heap sizes hwaccel's detection gives this device (None: not known to it)."""
    host = next((e["memory"]["total_bytes"] for e in detect["devices"] if e["backend"] == "cpu"),
                None)
    twin = next((e for e in detect["devices"] if e["backend"] != "vulkan" and
                 e["physical_id"] == d["physical_id"] and not e.get("partition") and
                 e["memory"]["total_bytes"]), None)
    if kind(d) in ("cpu", "integrated"):
        if twin and twin["memory"]["kind"] == "unified":
            return [(twin["memory"]["total_bytes"], True)]
        return [(host, True)]
    return [(twin["memory"]["total_bytes"] if twin else None, True), (host, False)]


def summary_blocks(text):
    """vulkaninfo --summary's GPUn blocks as dicts, in order."""
    blocks, current, in_devices = [], None, False
    for line in text.splitlines():
        if line.startswith("Devices:"):
            in_devices = True
        elif in_devices and line.startswith("GPU") and line.endswith(":"):
            current = {}
            blocks.append(current)
        elif in_devices and current is not None and "=" in line and line.startswith("\t"):
            key, value = line.strip().split("=", 1)
            current[key.strip()] = value.strip()
    return blocks


def client_lines(text):
    devices, work = [], []
    for line in text.splitlines():
        fields = line.split("\t")
        if fields[0].startswith("device "):
            devices.append(dict(f.split("=", 1) for f in fields[1:]))
        elif fields[0].startswith("work "):
            work.append(dict(f.split("=", 1) for f in fields[1:]))
    return devices, work


def run(hwsim, fixture, client):
    return subprocess.run([hwsim, "run", fixture, "--", "/bin/sh", "-c", SCRIPT, "sh", client],
                          capture_output=True, text=True, timeout=180)


def check_devices(detect, want, out):
    problems = []
    vulkaninfo, client = out.split("== client", 1)
    path = next((l[5:] for l in vulkaninfo.splitlines() if l.startswith("path ")), "")
    if "/.hwsim/" in path:
        problems.append("vulkaninfo is the shim (%s), not the real one" % path)
    if path:
        got = summary_blocks(vulkaninfo)
        if len(got) != len(want):
            problems.append("vulkaninfo: %d devices, want %d:\n%s" % (len(got), len(want),
                                                                       vulkaninfo[-600:]))
        for i, (g, d) in enumerate(zip(got, want)):
            ids = d.get("pci") or {}
            checks = [("deviceName", d["name"]), ("deviceType", TYPES[kind(d)])]
            if ids.get("vendor_id"):
                checks.append(("vendorID", ids["vendor_id"]))
            if ids.get("device_id"):
                checks.append(("deviceID", ids["device_id"]))
            for key, value in checks:
                if g.get(key) != value:
                    problems.append("vulkaninfo GPU%d %s: %r, want %r" % (i, key, g.get(key), value))
    devices, work = client_lines(client)
    if "client-exit 0" not in client:
        problems.append("client failed:\n" + client[-400:])
    if len(devices) != len(want):
        problems.append("client: %d devices, want %d" % (len(devices), len(want)))
    for i, (g, d) in enumerate(zip(devices, want)):
        ids = d.get("pci") or {}
        if g["name"] != d["name"] or g["type"] != kind(d):
            problems.append("client device %d: %s %s, want %s %s" % (i, g["name"], g["type"],
                                                                  d["name"], kind(d)))
        if ids.get("vendor_id") and g["vendor"] != ids["vendor_id"]:
            problems.append("client device %d vendor %s, want %s" % (i, g["vendor"], ids["vendor_id"]))
        if ids.get("device_id") and g["device"] != ids["device_id"]:
            problems.append("client device %d device %s, want %s" % (i, g["device"], ids["device_id"]))
        heaps = [(int(h.split(":")[0]), h.endswith(":local")) for h in g["heaps"].split(",")]
        expected = want_heaps(detect, d)
        if len(heaps) != len(expected) or any(
                (w is not None and size != w) or local != wl or size <= 0
                for (size, local), (w, wl) in zip(heaps, expected)):
            problems.append("client device %d heaps %s, want %s" % (i, heaps, expected))
    for i, w in enumerate(work):
        got = (w.get("create_device"), w.get("queue"), w.get("allocate"), w.get("submit"),
               w.get("wait"))
        want_work = ("0", "yes", str(OUT_OF_DEVICE_MEMORY), str(DEVICE_LOST), str(DEVICE_LOST))
        if got != want_work:
            problems.append("client work %d: %s, want %s" % (i, got, want_work))
    return problems


def check_no_driver(out):
    problems = []
    vulkaninfo, client = out.split("== client", 1)
    path = next((l[5:] for l in vulkaninfo.splitlines() if l.startswith("path ")), "")
    if "/.hwsim/" in path:
        problems.append("vulkaninfo is the shim (%s), not the real one" % path)
    if path and ("Found no drivers!" not in vulkaninfo or "vulkaninfo-exit 0" in vulkaninfo):
        problems.append("vulkaninfo does not fail as without a driver:\n" + vulkaninfo[-400:])
    if "vkCreateInstance %d" % INCOMPATIBLE_DRIVER not in client or "client-exit 3" not in client:
        problems.append("client: want vkCreateInstance %d:\n%s" % (INCOMPATIBLE_DRIVER,
                                                                   client[-400:]))
    return problems


def check(hwsim, hwaccel, fixture, client):
    detect = json.loads(subprocess.run([hwaccel, "detect", "--host", fixture, "--json"],
                                       capture_output=True, text=True, check=True).stdout)
    got = run(hwsim, fixture, client)
    if "no private mount namespace" in got.stderr:
        return os.path.basename(fixture), None
    if "== client" not in got.stdout:
        return os.path.basename(fixture), ["hwsim run failed:\n" + got.stderr[-600:]]
    want = vulkan_devices(detect)
    problems = check_devices(detect, want, got.stdout) if want else check_no_driver(got.stdout)
    return os.path.basename(fixture), problems


def main():
    hwsim, hwaccel, fixtures, client = sys.argv[1:5]
    hosts = []
    for path in sorted(glob.glob(os.path.join(fixtures, "*.yaml"))):
        expected = path[:-len(".yaml")] + ".expected/detect.json"
        if not os.path.exists(expected):
            continue
        detect = json.load(open(expected))
        vulkan = next((b for b in detect["backends"] if b["name"] == "vulkan"), None)
        # Every host with Vulkan devices; of those without, the ones whose driver
        # (or its manifest) is missing, and one that has no vulkaninfo at all.
        if (any(d["backend"] == "vulkan" for d in detect["devices"]) or
                (vulkan and (vulkan.get("reason") or {}).get("code") == "driver-not-found") or
                os.path.basename(path) == "cpu-only.yaml"):
            hosts.append(path)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for name, problems in pool.map(lambda h: check(hwsim, hwaccel, h, client), hosts):
            if problems is None:
                print("skipped: no private mount namespace here")
                return 77
            print("%-26s %s" % (name, "ok" if not problems else "FAILED"))
            for p in problems:
                print("  " + p.replace("\n", "\n  "))
            failed += bool(problems)
    print("%d of %d fixture hosts agree" % (len(hosts) - failed, len(hosts)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
