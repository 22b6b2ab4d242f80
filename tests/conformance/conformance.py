#!/usr/bin/env python3
"""The conformance matrix of simulated hosts (docs/hwsim.md): third-party
programs run on each host with `hwsim run` (one run per host, programs.sh), each
output checked against the facts the snapshot states.

  conformance.py HWSIM SNAPSHOT.yaml...      (a user can pass their own snapshots)

Prints one line per program x host check (agree / DISAGREE: why) and
"N of M program x host checks agree"; exits 1 when any disagrees, 77 when no
private namespace can be had (nothing is checked)."""
import os
import re
import subprocess
import sys

import yaml

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
    return {"os": f.get("os", "linux"), "cpus": cpus, "drm": drm, "sockets": sockets, "threads": threads,
            "mem_kb": int(mem.group(1)) if mem else 0, "pci": pci, "nodes": nodes,
            "chars": chars}


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


def checks(fx, out):
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
        if len(seen) != len(fx["pci"]):
            bad.append("%d devices, want %d" % (len(seen), len(fx["pci"])))
        check("lspci -nn -k -vmm", not bad,
              "; ".join(bad[:3]) or "%d devices, ids and drivers" % len(seen))
    if have("lstopo"):
        t = s["lstopo"][1]
        got = tuple(t.count('<object type="%s"' % k) for k in ("PU", "Package", "NUMANode"))
        want = (fx["cpus"], fx["sockets"], fx["nodes"])
        check("lstopo --of xml", got == want, "PUs, packages, NUMA nodes %s, want %s" % (got, want))
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
    return r


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    hwsim, hosts = argv[1], argv[2:]
    agree = total = 0
    for path in hosts:
        with open(path) as f:
            fx = facts_of(yaml.safe_load(f))
        name = os.path.basename(path).rsplit(".", 1)[0]
        if fx["os"] != "linux":
            print("%-24s not run: facts.os %s (no Linux kernel tree to present)" % (name, fx["os"]))
            continue
        run = subprocess.run([hwsim, "run", path, "--", "sh", os.path.join(HERE, "programs.sh")],
                             capture_output=True, text=True, timeout=300)
        if "no private mount namespace" in run.stderr:
            print("no private mount namespace here: nothing checked", file=sys.stderr)
            return 77
        for program, ok, why in checks(fx, run.stdout):
            total += 1
            agree += ok
            print("%-24s %-28s %s: %s" % (name, program, "agree" if ok else "DISAGREE", why))
    print("%d of %d program x host checks agree" % (agree, total))
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
