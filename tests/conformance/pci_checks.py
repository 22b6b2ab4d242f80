"""The PCI hierarchy's part of the conformance matrix (conformance.py): the paths a
snapshot's recorded `nvidia-smi topo -m` states, the root buses a kernel would show,
and hwloc's PCI tree checked against both."""
import re
import xml.etree.ElementTree as ET


def stated_paths(snapshot, pci):
    """{(bdf, bdf): PIX|PXB|PHB|NODE|SYS} from the recorded `nvidia-smi topo -m`:
    GPU<n> is the n-th NVIDIA display device in bus order, NIC<k> the device of
    its legend's name (/sys/class/infiniband/NAME/device)."""
    files = snapshot.get("files") or {}
    text = None
    for t in snapshot.get("tools") or []:
        if t.get("argv") in (["nvidia-smi", "topo", "-m"], ["nvidia-smi", "topo", "--matrix"]) \
                and not t.get("exit") and t.get("stdout"):
            text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", t["stdout"])
    if not text:
        return {}
    lines = text.splitlines()
    names = [c.strip() for c in lines[0].split("\t") if re.match(r"(GPU|NIC)\d+$", c.strip())]
    gpus = sorted(b for b, d in pci.items() if d["vendor"] == "0x10de" and
                  d.get("class", "").startswith("0x03"))
    where = {}
    if sum(n.startswith("GPU") for n in names) == len(gpus):
        where = {n: gpus[int(n[3:])] for n in names if n.startswith("GPU")}
    for line in lines:
        m = re.match(r"\s*(NIC\d+): (\S+)$", line)
        link = files.get("/sys/class/infiniband/%s/device" % m.group(2)) if m else None
        if isinstance(link, dict) and link.get("link", "").rsplit("/", 1)[-1] in pci:
            where[m.group(1)] = link["link"].rsplit("/", 1)[-1]
    out = {}
    for line in lines[1:]:
        cells = line.split("\t")
        if cells[0].strip() not in where:
            continue
        for name, cell in zip(names, cells[1:]):
            a, b = where[cells[0].strip()], where.get(name)
            if b and a != b and cell.strip() in ("PIX", "PXB", "PHB", "NODE", "SYS"):
                out[(a, b)] = cell.strip()
    return out


def host_bridges(pci, paths):
    """Root buses a kernel shows for these devices (sim/pci_layout.h's rule): runs
    of consecutive buses that one stated host bridge (PIX/PXB/PHB pairs) or, for
    devices topo -m does not name, one NUMA node holds."""
    up = {}

    def find(x):
        while up.get(x, x) != x:
            x = up[x]
        return x
    stated = {b for pair in paths for b in pair}
    for (a, b), path in paths.items():
        if path in ("PIX", "PXB", "PHB") and a[:4] == b[:4]:
            up[find(a[:7])] = find(b[:7])
    buses = {}
    for bdf in sorted(pci):
        buses.setdefault(bdf[:7], []).append(bdf)
    count, last = 0, None
    for bus, bdfs in sorted(buses.items()):
        key = (bus[:4], "t", find(bus)) if any(b in stated for b in bdfs) else \
            (bus[:4], "n", pci[bdfs[0]].get("numa_node", "-1"))
        count += key != last
        last = key
    return count


def lstopo_pci(xml, fx):
    """hwloc's PCI tree against the snapshot: every bridge's bus range holds what
    is below it, every recorded display device is there, and each pair topo -m
    relates is as far apart as it says (PIX: below one switch, at most one port
    between each and it; PXB: below one root port, more; PHB: one host bridge, not
    one root port; NODE/SYS: two host bridges), and each RDMA device is an OS
    device of its PCI device. PXB is only checked for one root
    port: where consecutive buses leave no numbers for a second switch, hwsim
    shows them behind one (a real VM's p5 does too). (problems, pairs checked)."""
    try:
        root = ET.fromstring(xml[xml.index("<?xml"):] if "<?xml" in xml else xml)
    except (ET.ParseError, ValueError) as e:
        return ["XML: %s" % e], 0
    chain, osdev, bad = {}, {}, []

    def walk(node, above):
        for o in node.findall("object"):
            here = above
            if o.get("type") == "Bridge":
                m = re.match(r"([0-9a-f]{4}):\[([0-9a-f]{2})-([0-9a-f]{2})\]", o.get("bridge_pci", ""))
                if m:
                    here = above + [(o.get("bridge_type"), m.group(1), int(m.group(2), 16),
                                     int(m.group(3), 16), o.get("pci_busid"))]
            elif o.get("type") == "OSDev" and node.get("type") == "PCIDev":
                osdev[o.get("name")] = node.get("pci_busid")
            elif o.get("type") == "PCIDev" and o.get("pci_busid"):
                bdf = o.get("pci_busid")
                chain[bdf] = above
                bus = int(bdf[5:7], 16)
                if not above or any(not (lo <= bus <= hi) or d != bdf[:4] for _, d, lo, hi, _ in above):
                    bad.append("%s outside its bridges' ranges" % bdf)
            walk(o, here)
    walk(root, [])
    bad += ["%s missing" % b for b, d in fx["pci"].items()
            if d.get("class", "").startswith("0x03") and b not in chain]
    # RDMA devices: hwloc finds them through /sys/class/infiniband, below their PCI device.
    bad += ["%s not below %s" % (n, b) for n, b in fx["rdma"].items() if osdev.get(n) != b]
    pairs = 0
    for (a, b), path in sorted(fx["paths"].items()):
        if a not in chain or b not in chain or a > b:
            continue
        pairs += 1
        ca, cb = chain[a], chain[b]
        common = 0
        while common < min(len(ca), len(cb)) and ca[common] == cb[common]:
            common += 1
        ports = common - 1  # the host bridge is the first
        if path == "PIX":
            ok = ports >= 1 and len(ca) - common <= 1 and len(cb) - common <= 1
        elif path == "PXB":  # (one switch where the buses leave no room for two)
            ok = ports >= 1
        elif path == "PHB":
            ok = common == 1
        else:
            ok = common == 0
        if not ok:
            bad.append("%s %s %s: %d shared bridges" % (a, path, b, common))
    return bad, pairs
