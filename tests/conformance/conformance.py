#!/usr/bin/env python3
"""The conformance matrix of simulated hosts (docs/hwsim.md): third-party
programs run on each host with `hwsim run` (one run per host, programs.sh), each
output checked against the facts the snapshot states.

  conformance.py HWSIM SNAPSHOT.yaml...      (a user can pass their own snapshots)

Prints one line per program x host check (agree / DISAGREE: why) and
"N of M program x host checks agree"; exits 1 when any disagrees, 77 when no
private namespace can be had (nothing is checked)."""
import json
import os
import re
import subprocess
import sys

import yaml

from pci_checks import host_bridges, lstopo_pci, stated_paths

HERE = os.path.dirname(os.path.abspath(__file__))
PCI = re.compile(r"/sys/bus/pci/devices/([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])/"
                 r"(vendor|device|class|driver|numa_node)$")


def facts_of(snapshot):
    """What the snapshot says: CPUs, sockets, threads, memory, PCI devices, nodes."""
    files = snapshot.get("files") or {}
    f = snapshot.get("facts") or {}

    def text(p):
        return files.get(p) if isinstance(files.get(p), str) else None

    cpus = int(f.get("cpus") or 0)
    sockets, threads = 1, 1
    info = text("/proc/cpuinfo") or ""
    places = re.findall(r"physical id\s*:\s*(\d+)\n(?:.*\n)*?core id\s*:\s*(\d+)", info)
    if len(places) == cpus and cpus:
        sockets = len({p for p, _ in places})
        per_core = {}
        for pc in places:
            per_core[pc] = per_core.get(pc, 0) + 1
        threads = max(per_core.values())
    mem = re.search(r"MemTotal:\s*(\d+) kB", text("/proc/meminfo") or "")
    pci = {}
    for path, entry in files.items():
        m = PCI.match(path)
        if not m:
            continue
        dev = pci.setdefault(m.group(1), {})
        if m.group(2) == "driver" and isinstance(entry, dict) and "link" in entry:
            dev["driver"] = entry["link"].rsplit("/", 1)[-1]
        elif isinstance(entry, str):
            dev[m.group(2)] = entry.strip()
    pci = {b: d for b, d in pci.items() if "vendor" in d}
    numa = [int(d["numa_node"]) for d in pci.values() if d.get("numa_node", "x").isdigit()]
    # The kernel tree hwsim fills has one node per socket and one for every device's node.
    nodes = max([sockets] + [n + 1 for n in numa])
    chars = sorted(p for p, e in files.items()
                   if p.startswith("/dev/") and isinstance(e, dict) and e.get("type") == "char")
    # /sys/class/drm: what the snapshot records, else the fill's DRM minors of the
    # display devices bound to a DRM driver (cards and render nodes in bus order).
    drm = {}
    rec = files.get("/sys/class/drm")
    below = {p.split("/")[4] for p in files if p.startswith("/sys/class/drm/")}
    if isinstance(rec, dict) and "dir" in rec:
        drm = {n: None for n in list(rec["dir"]) + sorted(below)}
    elif rec is not None or below:
        drm = {n: None for n in below}
    else:
        card, render = 0, 128
        nvidia_drm = "/sys/module/nvidia_drm" in files or any(
            p.startswith("/dev/dri/card") for p in files)
        for bdf in sorted(pci):
            d = pci[bdf]
            if not d.get("class", "").startswith("0x03"):
                continue
            drv = d.get("driver")
            kind = 1 if drv in ("ast", "mgag200") else 2 if drv in (
                "amdgpu", "radeon", "nouveau", "i915", "xe") or (drv == "nvidia" and nvidia_drm) else 0
            if kind:
                drm["card%d" % card] = bdf
                card += 1
            if kind == 2:
                drm["renderD%d" % render] = bdf
                render += 1
        if drm:
            drm["version"] = None
    paths = stated_paths(snapshot, pci)
    rdma = {}
    for p, e in files.items():
        m = re.match(r"/sys/class/infiniband/([^/]+)/device$", p)
        if m and isinstance(e, dict) and e.get("link", "").rsplit("/", 1)[-1] in pci:
            rdma[m.group(1)] = e["link"].rsplit("/", 1)[-1]
    return {"os": f.get("os", "linux"), "cpus": cpus, "drm": drm, "paths": paths, "rdma": rdma,
            "host_bridges": host_bridges(pci, paths), "sockets": sockets, "threads": threads,
            "mem_kb": int(mem.group(1)) if mem else 0, "pci": pci, "nodes": nodes,
            "chars": chars}


def gpus_of(hwsim, path):
    """NVIDIA GPUs as hwaccel replays them: [(uuid, name, MiB or None, [MIG uuids])]."""
    run = subprocess.run([hwsim, "replay", path, "--json"], capture_output=True, text=True,
                         timeout=120)
    devices = json.loads(run.stdout).get("devices", []) if run.returncode == 0 else []
    cuda = [d for d in devices if d.get("backend") == "cuda" and d.get("status") == "ready"]
    whole = [d for d in cuda if not d.get("partition")]
    out = []
    for d in sorted(whole, key=lambda d: d["index"]):
        mem = d.get("memory") or {}
        mib = mem["total_bytes"] // (1 << 20) if mem.get("kind") == "discrete" and \
            mem.get("total_bytes") else None
        migs = [p["uuid"] for p in cuda if (p.get("partition") or {}).get("parent_index") ==
                d["index"]]
        out.append((d["uuid"], d["name"], mib, migs))
    return out


def nvidia_smi_checks(gpus, s, check):
    """The nvidia-smi emulator's answers against hwaccel's GPUs (none: the tool fails)."""
    def ran(name):
        return name in s and s[name][0] != "missing"

    if not gpus:
        for name, program in (("nvsmi-list", "nvidia-smi --list-gpus"),
                              ("nvsmi-query", "nvidia-smi --query-gpu"),
                              ("nvsmi-xml", "nvidia-smi -q -x"),
                              ("nvsmi-lgi", "nvidia-smi mig -lgi"),
                              ("nvsmi-helpq", "nvidia-smi --help-query-gpu")):
            if ran(name):
                check(program, s[name][0] != "0", "exit %s, want a failure (no GPU)" % s[name][0])
        return
    if ran("nvsmi-list"):
        t = s["nvsmi-list"][1]
        want = ["GPU %d: %s (UUID: %s)" % (i, g[1], g[0]) for i, g in enumerate(gpus)]
        lines = t.splitlines()
        bad = [w for w in want if w not in lines]
        bad += [m for g in gpus for m in g[3] if "(UUID: %s)" % m not in t]
        check("nvidia-smi --list-gpus", not bad and s["nvsmi-list"][0] == "0",
              "missing: " + ", ".join(bad[:2]) if bad else "%d GPUs, %d MIG devices" %
              (len(gpus), sum(len(g[3]) for g in gpus)))
    if ran("nvsmi-query"):
        rows = [l for l in s["nvsmi-query"][1].splitlines() if l]
        want = ["%s, %s, %s" % (g[0], g[1], g[2] if g[2] is not None else "[N/A]") for g in gpus]
        check("nvidia-smi --query-gpu", rows == want,
              "%d rows (UUID, name, MiB)" % len(rows) if rows == want else
              "got %s, want %s" % (rows[:1], want[:1]))
    if ran("nvsmi-xml"):
        t = s["nvsmi-xml"][1]
        ok = t.count("<gpu id=") == len(gpus) and all("<uuid>%s</uuid>" % g[0] in t for g in gpus)
        check("nvidia-smi -q -x", ok, "%d <gpu>, want %d with their UUIDs" %
              (t.count("<gpu id="), len(gpus)))
    if ran("nvsmi-lgi"):
        # One row per GPU instance: each MIG device of the fixtures is its own GI.
        t = s["nvsmi-lgi"][1]
        rows = re.findall(r"^\|\s+\d+\s+MIG \S+\s+\d+\s+\d+\s+\d+:\d+\s+\|$", t, re.M)
        migs = sum(len(g[3]) for g in gpus)
        if migs:
            check("nvidia-smi mig -lgi", len(rows) == migs and s["nvsmi-lgi"][0] == "0",
                  "%d GPU instances, want %d" % (len(rows), migs))
        else:
            check("nvidia-smi mig -lgi", t.strip() == "No MIG-enabled devices found." and
                  s["nvsmi-lgi"][0] == "6", "%r (exit %s), want no MIG" % (t[:40], s["nvsmi-lgi"][0]))
    if ran("nvsmi-lgip") and "no MIG profile table" not in s["nvsmi-lgip"][1]:
        # MIG-capable GPUs list profiles under their index; others have none.
        t = s["nvsmi-lgip"][1]
        capable = [i for i, g in enumerate(gpus) if re.search(r"A100|A30|H100|H200|H800|B200|B300", g[1])]
        got = sorted(set(int(x) for x in re.findall(r"^\|\s+(\d+)\s+MIG ", t, re.M)))
        if capable:
            check("nvidia-smi mig -lgip", got == capable, "profiles of GPUs %s, want %s" % (got, capable))
        else:
            check("nvidia-smi mig -lgip", t.strip() == "No MIG-enabled devices found.",
                  "%r, want no MIG" % t[:40])
    if ran("nvsmi-helpq"):
        names = re.findall(r'^"([^"]+)"', s["nvsmi-helpq"][1], re.M)
        check("nvidia-smi --help-query-gpu", s["nvsmi-helpq"][0] == "0" and
              {"uuid", "name", "memory.total", "pci.bus_id"} <= set(names),
              "%d fields listed" % len(names))
    if ran("nvsmi-topo"):
        rows = [l for l in s["nvsmi-topo"][1].splitlines() if re.match(r"GPU\d+\t", l)]
        check("nvidia-smi topo --matrix", len(rows) == len(gpus),
              "%d GPU rows, want %d" % (len(rows), len(gpus)))


def replay_devices(hwsim, path):
    """Every device as `hwsim replay --json` gives it."""
    run = subprocess.run([hwsim, "replay", path, "--json"], capture_output=True, text=True,
                         timeout=120)
    return json.loads(run.stdout).get("devices", []) if run.returncode == 0 else []


def replay_environment(hwsim, path):
    """What `hwsim replay --json` says of the host's environment (VM, container)."""
    run = subprocess.run([hwsim, "replay", path, "--json"], capture_output=True, text=True,
                         timeout=120)
    doc = json.loads(run.stdout) if run.returncode == 0 else {}
    return (doc.get("system") or {}).get("environment") or {}


def recorded_tools(snapshot):
    """Tools the snapshot records as run (not not-found): those have a shim."""
    names = set()
    for t in snapshot.get("tools") or []:
        argv = t.get("argv") or []
        if argv and t.get("outcome") != "not-found":
            names.add(os.path.basename(str(argv[0])))
    return names


def vendor_tool_checks(devices, tools, s, check):
    """The other vendors' emulators (hl-smi, neuron-ls, xpu-smi, vulkaninfo) on argvs
    no snapshot records, against hwaccel's devices; none: the tool fails."""
    def ready(backend):
        return sorted((d for d in devices if d.get("backend") == backend and
                       d.get("status") == "ready" and not d.get("partition")),
                      key=lambda d: d["index"])

    def ran(name, tool):
        return tool in tools and name in s and s[name][0] != "missing"

    def bus(d):
        return (d.get("pci") or {}).get("bus_id") or ""

    def total(d):
        return (d.get("memory") or {}).get("total_bytes")

    if ran("hlsmi-query", "hl-smi"):
        want = []
        for d in ready("gaudi"):
            m = re.search(r"\(([^()]*)\)$", d["name"])
            want.append("%s, %s, %s" % (m.group(1) if m else d["name"], bus(d),
                                        total(d) // (1 << 20) if total(d) else "N/A"))
        rows = [l for l in s["hlsmi-query"][1].splitlines() if l]
        if not want:
            check("hl-smi -Q", s["hlsmi-query"][0] != "0", "exit %s, want a failure" %
                  s["hlsmi-query"][0])
        else:
            check("hl-smi -Q", rows == want, "%d rows (name, bus, MiB)" % len(rows) if rows == want
                  else "got %s, want %s" % (rows[:1], want[:1]))
    if ran("neuronls-json", "neuron-ls"):
        want = [(bus(d), total(d)) for d in ready("neuron")]
        try:
            got = [(x.get("bdf") or "", x.get("memory_size")) for x in
                   json.loads(s["neuronls-json"][1])]
        except ValueError:
            got = None
        if not want:
            check("neuron-ls -j", s["neuronls-json"][0] != "0", "exit %s, want a failure" %
                  s["neuronls-json"][0])
        else:
            check("neuron-ls -j", got == want, "%d devices (bdf, memory)" % len(want)
                  if got == want else "got %s, want %s" % ((got or [])[:1], want[:1]))
    if ran("xpusmi-json", "xpu-smi"):
        want = [bus(d) for d in ready("oneapi")]
        try:
            got = [x.get("pci_bdf_address") for x in
                   json.loads(s["xpusmi-json"][1]).get("device_list", [])]
        except (ValueError, AttributeError):
            got = None
        if not want:
            check("xpu-smi discovery -j", s["xpusmi-json"][0] != "0", "exit %s, want a failure"
                  % s["xpusmi-json"][0])
        else:
            check("xpu-smi discovery -j", got == want, "%d devices (bdf)" % len(want)
                  if got == want else "got %s, want %s" % ((got or [])[:1], want[:1]))
    if ran("vulkaninfo-full", "vulkaninfo"):
        names = [d["name"] for d in sorted((d for d in devices if d.get("backend") == "vulkan"),
                                           key=lambda d: d["index"])]
        t = s["vulkaninfo-full"][1]
        got = re.findall(r"^\tdeviceName\s*= (.*)$", t, re.M)
        if not names:
            check("vulkaninfo", s["vulkaninfo-full"][0] != "0", "exit %s, want a failure" %
                  s["vulkaninfo-full"][0])
        else:
            check("vulkaninfo", got == names and t.count("VkPhysicalDeviceProperties:") ==
                  len(names), "%d devices by name" % len(names) if got == names else
                  "got %s, want %s" % (got[:1], names[:1]))


def pci_ids_name(vendor, device):
    """The device's name in this machine's pci.ids (what librocm_smi64 prints as
    the card series), else None."""
    for path in ("/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids"):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                in_vendor = False
                for line in f:
                    if line.startswith("#") or not line.strip():
                        continue
                    if not line.startswith("\t"):
                        in_vendor = line.lower().startswith(vendor + " ")
                    elif in_vendor and line.lower().startswith("\t" + device + "  "):
                        return line[len(device) + 3:].strip()
            return None
        except OSError:
            continue
    return None


def rocm_smi_checks(devices, snapshot, s, check):
    """Debian's real rocm-smi against hwaccel's ROCm GPUs: bus ids in order, VRAM
    (on an APU the carve-out the snapshot records, with the GTT as the GPU's
    memory), the card series (pci.ids' name of the device id, or the id);
    without a ready ROCm GPU it lists none."""
    if "rocmsmi-real" not in s or s["rocmsmi-real"][0] == "missing":
        return
    t = s["rocmsmi-real"][1]
    want = sorted((d for d in devices if d.get("backend") == "rocm" and d.get("status") == "ready"
                   and not d.get("partition")), key=lambda d: d["index"])
    buses = re.findall(r"^GPU\[(\d+)\]\s*: PCI Bus: (\S+)$", t, re.M)
    if not want:
        check("rocm-smi (ROCm's)", not buses, "no GPU listed (%s)" % (
            t.strip().splitlines()[-1][:60] if t.strip() else "no output") if not buses
              else "lists %d GPUs, want none" % len(buses))
        return
    files = snapshot.get("files") or {}

    def per_gpu(label):
        return {int(i): int(v) for i, v in re.findall(
            r"^GPU\[(\d+)\]\s*: %s \(B\): (\d+)$" % re.escape(label), t, re.M)}

    vram, gtt = per_gpu("VRAM Total Memory"), per_gpu("GTT Total Memory")
    series = dict((int(i), v.strip()) for i, v in
                  re.findall(r"^GPU\[(\d+)\]\s*: Card series:\s*(.*)$", t, re.M))
    bad = []
    got_bus = [b.lower() for _, b in buses]
    want_bus = [(d.get("pci") or {}).get("bus_id") for d in want]
    if got_bus != want_bus:
        bad.append("bus ids %s, want %s" % (got_bus[:2], want_bus[:2]))
    for i, d in enumerate(want):
        bdf = want_bus[i]
        mem = d.get("memory") or {}
        total = mem.get("total_bytes")
        recorded = files.get("/sys/bus/pci/devices/%s/mem_info_vram_total" % bdf)
        if mem.get("kind") == "unified":
            if gtt.get(i) != total:
                bad.append("GPU[%d] GTT %s, want %s" % (i, gtt.get(i), total))
            if recorded is None or vram.get(i) != int(str(recorded).strip()):
                bad.append("GPU[%d] VRAM %s, want the carve-out %s" % (i, vram.get(i), recorded))
        elif vram.get(i) != total:
            bad.append("GPU[%d] VRAM %s, want %s" % (i, vram.get(i), total))
        # amdgpu's product_name where the device has one, else pci.ids' name, else the id.
        dev_id = ((d.get("pci") or {}).get("device_id") or "").lower()
        product = files.get("/sys/bus/pci/devices/%s/product_name" % bdf)
        name = str(product).strip() if isinstance(product, str) and product.strip() else \
            pci_ids_name("1002", dev_id[2:]) if dev_id else None
        if series.get(i) != (name or dev_id):
            bad.append("GPU[%d] series %r, want %r" % (i, series.get(i), name or dev_id))
    check("rocm-smi (ROCm's)", not bad, "; ".join(bad[:3]) or
          "%d GPUs: bus ids, VRAM/GTT, card series" % len(want))


def this_machine():
    """This machine's mounts a host has no business showing (as src/host/mount_table.h
    decides: read-only memory file systems, single files bound in outside /etc) and its
    cgroup hierarchies' mount points; and whether it says "docker" in its mountinfo."""
    try:
        with open("/proc/self/mountinfo") as f:
            text = f.read()
    except OSError:
        text = ""
    foreign, cgroups = set(), set()
    for line in text.splitlines():
        w = line.split(" ")
        if "-" not in w or w.index("-") < 6:
            continue
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), w[4])
        fstype, options = w[w.index("-") + 1], w[5].split(",")
        if fstype in ("cgroup", "cgroup2"):
            cgroups.add(point)
        if point == "/" or re.match(r"/(proc|sys|dev)(/|$)", point):
            continue
        memory_ro = fstype in ("tmpfs", "ramfs") and "ro" in options
        if memory_ro or (not point.startswith("/etc/") and not os.path.isdir(point)):
            foreign.add(point)
    return {"foreign": foreign, "cgroups": cgroups, "docker": "docker" in text}


def leak_checks(snapshot, machine, s, check, environment):
    """Nothing of this machine's container in what the command reads of itself."""
    files = snapshot.get("files") or {}
    docker = isinstance(files.get("/.dockerenv"), str)

    def ran(name):
        return name in s and s[name][0] != "missing"

    def cgroup_paths(text):
        return [l.split(":", 2)[2] for l in text.splitlines() if l.count(":") >= 2]

    if ran("self-cgroup"):
        paths = cgroup_paths(s["self-cgroup"][1])
        check("cat /proc/self/cgroup", paths and all(p == "/" for p in paths),
              "%d hierarchies, all at \"/\"" % len(paths) if paths and all(p == "/" for p in paths)
              else "paths %s" % sorted(set(paths))[:3])
    if ran("pid1-cgroup"):
        got = s["pid1-cgroup"][1]
        rec = files.get("/proc/1/cgroup")
        if isinstance(rec, str):
            check("cat /proc/1/cgroup", got == rec.rstrip("\n"), "the snapshot's" if
                  got == rec.rstrip("\n") else "got %r, want %r" % (got[:40], rec[:40]))
        else:
            paths = cgroup_paths(got)
            check("cat /proc/1/cgroup", paths and all(p == "/" for p in paths),
                  "all at \"/\"" if paths and all(p == "/" for p in paths) else "paths %s" % paths[:3])
    for name, program, at in (("mountinfo", "cat /proc/self/mountinfo", 4),
                              ("mounts", "cat /proc/mounts", 1)):
        if not ran(name):
            continue
        points = set()
        for line in s[name][1].splitlines():
            w = line.split(" ")
            if len(w) > at:
                points.add(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), w[at]))
        bad = sorted((points & machine["foreign"]) | (points & machine["cgroups"]))
        if machine["docker"] and not docker and "docker" in s[name][1]:
            bad.append("the word docker")
        check(program, not bad, "%d mounts, none of this machine's container" % len(points)
              if not bad else "this machine's: " + ", ".join(bad[:3]))
    if "detect-virt" in s and s["detect-virt"][0] != "missing":
        want = "docker" if docker else "podman" if isinstance(files.get("/run/.containerenv"),
                                                              str) else "none"
        got = s["detect-virt"][1].strip()
        check("systemd-detect-virt -c", got == want, "%s, want %s" % (got, want))
    if "detect-virt-vm" in s and s["detect-virt-vm"][0] != "missing":
        # The real tool asks the CPU first: this machine's hypervisor must not show
        # on a recorded bare-metal host (systemd's names per hypervisor: unit tests).
        got = s["detect-virt-vm"][1].strip()
        if environment.get("virtual_machine") is True:
            check("systemd-detect-virt --vm", got not in ("", "none"),
                  "%s, the recorded %s VM" % (got, environment.get("hypervisor") or "?"))
        else:
            check("systemd-detect-virt --vm", got == "none", "%s, want none" % got)


def mac_checks(fx, devices, s, check):
    """sysctl and system_profiler on a simulated Mac against its facts and Apple GPU."""
    gpu = next((d for d in devices if d.get("backend") == "apple" and
                str(d.get("compute_class", "")).startswith("metal")), None)
    if not gpu:
        return
    chip = gpu["name"].split(" (")[0]
    mem = (gpu.get("memory") or {}).get("total_bytes")
    if "sysctl" in s and s["sysctl"][0] != "missing":
        lines = s["sysctl"][1].splitlines()
        ok = len(lines) == 4 and lines[0] == str(mem) and lines[1] == str(fx["cpus"]) and \
            lines[3] == chip and 0 < int(lines[2]) < fx["cpus"]
        check("sysctl -n hw.memsize ...", ok, "%s" % lines[:4])
    if "sp-hardware" in s and s["sp-hardware"][0] != "missing":
        try:
            hw = json.loads(s["sp-hardware"][1])["SPHardwareDataType"][0]
        except (ValueError, KeyError, IndexError):
            hw = {}
        want_mem = "%d GB" % (mem // (1 << 30)) if mem else None
        ok = hw.get("chip_type") == chip and hw.get("physical_memory") == want_mem and \
            str(hw.get("number_processors", "")).startswith("proc %d:" % fx["cpus"])
        check("system_profiler SPHardwareDataType -json", ok, "%s, %s" %
              (hw.get("chip_type"), hw.get("physical_memory")))
    if "sp-displays" in s and s["sp-displays"][0] != "missing":
        t = s["sp-displays"][1]
        cores = re.search(r"\((\d+)-core GPU\)", gpu["name"])
        ok = ("      Chipset Model: %s" % chip) in t.splitlines() and \
            (not cores or ("      Total Number of Cores: %s" % cores.group(1)) in t.splitlines())
        check("system_profiler SPDisplaysDataType", ok, "%s, %s cores" %
              (chip, cores.group(1) if cores else "?"))


def sections(out):
    got, name, lines = {}, None, []
    for line in out.splitlines():
        m = re.match(r"=== (exit (\S+)|(\S+))$", line)
        if m and m.group(3) and name is None:
            name, lines = m.group(3), []
        elif m and m.group(2) is not None and name is not None:
            got[name] = (m.group(2), "\n".join(lines))
            name = None
        elif name is not None:
            lines.append(line)
    return got


def field(text, key):
    m = re.search(r"^" + re.escape(key) + r":\s*(.*)$", text, re.M)
    return m.group(1).strip() if m else None


def checks(fx, out, gpus=(), devices=(), tools=(), snapshot=None, machine=None, environment=None):
    """(program, ok, why) for every check whose program ran."""
    r = []

    def check(program, ok, why):
        r.append((program, bool(ok), why))

    s = sections(out)

    def have(name):
        return name in s and s[name][0] != "missing"

    if have("lscpu"):
        t = s["lscpu"][1]
        got = (field(t, "CPU(s)"), field(t, "Socket(s)"), field(t, "Thread(s) per core"),
               field(t, "NUMA node(s)"))
        want = (str(fx["cpus"]), str(fx["sockets"]), str(fx["threads"]), str(fx["nodes"]))
        check("lscpu", got == want,
              "CPUs, sockets, threads per core, NUMA nodes %s, want %s" % (got, want))
    if have("lscpu-e"):
        rows = [l for l in s["lscpu-e"][1].splitlines()[1:] if l.strip()]
        check("lscpu -e", len(rows) == fx["cpus"], "%d rows, want %d CPUs" % (len(rows), fx["cpus"]))
    if have("lspci"):
        devs = [b for b in s["lspci"][1].split("\n\n") if field(b, "Slot")]
        seen = {}
        for b in devs:
            slot = field(b, "Slot")
            seen[slot if slot.count(":") == 2 else "0000:" + slot] = b
        bad = []
        for bdf, d in fx["pci"].items():
            b = seen.get(bdf)
            if b is None:
                bad.append(bdf + " missing")
                continue
            ven, dev = d["vendor"][2:6].lower(), d.get("device", "0x0000")[2:6].lower()
            if not (field(b, "Vendor") or "").endswith("[%s]" % ven) or \
                    not (field(b, "Device") or "").endswith("[%s]" % dev):
                bad.append(bdf + " ids")
            if "driver" in d and field(b, "Driver") != d["driver"]:
                bad.append("%s driver %s, want %s" % (bdf, field(b, "Driver"), d["driver"]))
        # The bridges the tree adds above the devices: PCI bridges bound to pcieport.
        bridges = [b for slot, b in seen.items() if slot not in fx["pci"]]
        bad += ["%s not a port" % field(b, "Slot") for b in bridges
                if not (field(b, "Class") or "").endswith("[0604]") or
                field(b, "Driver") != "pcieport"]
        if len(seen) - len(bridges) != len(fx["pci"]):
            bad.append("%d devices, want %d" % (len(seen) - len(bridges), len(fx["pci"])))
        check("lspci -nn -k -vmm", not bad,
              "; ".join(bad[:3]) or "%d devices, ids and drivers, %d ports" %
              (len(seen) - len(bridges), len(bridges)))
    if have("lspci-t") and fx["pci"]:
        # Root buses: "[DDDD:BB]" at the start of a top-level branch; lspci shows
        # 0000:00 even where it is empty ("-[0000:00]-" with nothing after it).
        roots = [m.group(1) for m in re.finditer(r"^(?:.[-+\\]-|-)\[([0-9a-f]{4}:[0-9a-f]{2})\]-(.?)",
                                                 s["lspci-t"][1], re.M) if m.group(2)]
        check("lspci -t", len(roots) == fx["host_bridges"],
              "%d root buses, want %d" % (len(roots), fx["host_bridges"]))
    if have("lstopo"):
        t = s["lstopo"][1]
        got = tuple(t.count('<object type="%s"' % k) for k in ("PU", "Package", "NUMANode"))
        want = (fx["cpus"], fx["sockets"], fx["nodes"])
        check("lstopo --of xml", got == want, "PUs, packages, NUMA nodes %s, want %s" % (got, want))
        if fx["pci"]:
            bad, pairs = lstopo_pci(t, fx)
            check("lstopo PCI bridges", not bad, "; ".join(bad[:3]) or
                  "bus ranges hold their devices, %d stated paths, %d RDMA devices" %
                  (pairs, len(fx["rdma"])))
    if have("numactl"):
        t = s["numactl"][1]
        m = re.search(r"available: (\d+) nodes", t)
        sizes = sum(int(x) for x in re.findall(r"node \d+ size: (\d+) MB", t))
        want_mb = fx["mem_kb"] // 1024
        ok = m and int(m.group(1)) == fx["nodes"] and abs(sizes - want_mb) <= fx["nodes"]
        check("numactl -H", ok, "%s nodes, %d MB, want %d nodes, %d MB" %
              (m.group(1) if m else "?", sizes, fx["nodes"], want_mb))
    if have("getconf"):
        got = s["getconf"][1].strip()
        check("getconf _NPROCESSORS_CONF", got == str(fx["cpus"]), "%s, want %d" % (got, fx["cpus"]))
    if have("free") and fx["mem_kb"]:
        m = re.search(r"^Mem:\s+(\d+)", s["free"][1], re.M)
        check("free -b", m and int(m.group(1)) == fx["mem_kb"] * 1024,
              "total %s, want %d" % (m.group(1) if m else "?", fx["mem_kb"] * 1024))
    if have("ls-drm"):
        got = {}
        for line in s["ls-drm"][1].splitlines():
            parts = line.split()
            if len(parts) >= 9 and re.match(r"[-dlcbps][-rwxsStT]{9}", line):
                arrow = parts.index("->") if "->" in parts else None
                got[parts[arrow - 1] if arrow else parts[-1]] = parts[-1] if arrow else None
        bad = sorted(set(got) ^ set(fx["drm"]))
        bad += [n for n, bdf in fx["drm"].items()
                if bdf and not (got.get(n) or "").endswith("/%s/drm/%s" % (bdf, n))]
        check("ls -l /sys/class/drm", not bad, "differs: " + ", ".join(bad[:3]) if bad
              else "%d entries, links into their devices" % len(got))
    if have("ls-dev"):
        listed, where = {}, "/dev"
        for line in s["ls-dev"][1].splitlines():
            if line.endswith(":") and line.startswith("/dev"):
                where = line[:-1]
            parts = line.split()
            if len(parts) >= 9:
                listed[where + "/" + parts[-1]] = line[0]
        bad = [p for p in fx["chars"] if p.count("/") <= 3 and listed.get(p) != "c"]
        check("ls -l /dev", not bad, "not character devices: " + ", ".join(bad[:3]) if bad
              else "%d character devices" % len(fx["chars"]))
    if "test-nvidia0" in s:
        want = "char" if "/dev/nvidia0" in fx["chars"] else "none"
        got = s["test-nvidia0"][1].strip()
        check("test -c /dev/nvidia0", got == want, "%s, want %s" % (got, want))
    nvidia_smi_checks(list(gpus), s, check)
    vendor_tool_checks(list(devices), set(tools), s, check)
    rocm_smi_checks(list(devices), snapshot or {}, s, check)
    if snapshot is not None and machine is not None:
        leak_checks(snapshot, machine, s, check, environment or {})
    mac_checks(fx, list(devices), s, check)
    return r


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    hwsim, hosts = argv[1], argv[2:]
    agree = total = 0
    machine = this_machine()
    for path in hosts:
        with open(path) as f:
            snapshot = yaml.safe_load(f)
        fx = facts_of(snapshot)
        name = os.path.basename(path).rsplit(".", 1)[0]
        mac = fx["os"] == "darwin"
        if fx["os"] != "linux" and not mac:
            print("%-24s not run: facts.os %s (no Linux kernel tree to present)" % (name, fx["os"]))
            continue
        # A Mac has no Linux kernel tree to check: only macOS's own tools run there.
        run = subprocess.run([hwsim, "run", path, "--", "sh", os.path.join(HERE, "programs.sh")] +
                             (["mac"] if mac else []), capture_output=True, text=True, timeout=300)
        if "no private mount namespace" in run.stderr:
            print("no private mount namespace here: nothing checked", file=sys.stderr)
            return 77
        for program, ok, why in checks(fx, run.stdout, gpus_of(hwsim, path),
                                       replay_devices(hwsim, path), recorded_tools(snapshot),
                                       snapshot, machine, replay_environment(hwsim, path)):
            total += 1
            agree += ok
            print("%-24s %-28s %s: %s" % (name, program, "agree" if ok else "DISAGREE", why))
    print("%d of %d program x host checks agree" % (agree, total))
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
