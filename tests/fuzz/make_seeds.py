#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/*_fuzz.cpp).

Seeds come from the project's fixtures (fixtures/hosts/*.yaml: the files and tool
outputs inside each snapshot, the snapshots themselves, the golden detect.json)
and from the real captures in fixtures/real/ (the nvidia-smi captures split into
their sections, the procfs ttar archive, the hwloc tarballs). Output:
OUT/<target>/<sha1 of the content>, for ci/fuzz to pass to each target.

Usage: make_seeds.py --out build-fuzz/seeds [--captures fixtures/real]
"""
import argparse
import fnmatch
import hashlib
import os
import re
import sys
import tarfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_SEED = 64 * 1024  # ci/fuzz runs with -max_len=65536
PER_SOURCE_LIMIT = 40  # seeds of one kind from one archive: enough for coverage

# Which target reads which file, by the path the probes read it at.
FILE_TARGETS = [
    ("/proc/meminfo", "proc_meminfo"),
    ("/proc/cpuinfo", "proc_cpuinfo"),
    ("/proc/driver/nvidia/gpus/*/information", "nvidia_gpu_information"),
    ("/sys/*/vendor", "sysfs_hex"),
    ("/sys/*/device", "sysfs_hex"),
    ("/sys/*/class", "sysfs_hex"),
    ("/sys/*/subsystem_vendor", "sysfs_hex"),
    ("/sys/*/subsystem_device", "sysfs_hex"),
    ("/sys/*/numa_node", "sysfs_hex"),
    ("/sys/class/drm/*/device/uevent", "amdgpu_sysfs"),
    ("/sys/class/drm/*/device/mem_info_*", "amdgpu_sysfs"),
    ("/sys/class/drm/*/device/current_*_partition", "amdgpu_sysfs"),
    ("/sys/class/kfd/kfd/topology/nodes/*/properties", "amdgpu_kfd_topology"),
    ("/proc/device-tree/compatible", "apple_system_profiler"),
    ("/sys/class/kfd/kfd/topology/nodes/*/mem_banks/*/properties", "amdgpu_kfd_topology"),
    ("/sys/*_link_speed", "pcie_link"),
    ("/sys/*_link_width", "pcie_link"),
    ("/sys/class/infiniband/*/ports/*/state", "infiniband"),
    ("/sys/class/infiniband/*/ports/*/rate", "infiniband"),
    ("/sys/*/size", "block_devices"),
    ("/sys/*/queue/rotational", "block_devices"),
    ("/proc/1/cgroup", "runtime_env"),
]

# Texts nobody has a file of: the driver failure messages quoted in
# fixtures/real/README.md, and a few CUDA_VISIBLE_DEVICES values.
EXTRA = {
    "nvidia_smi_errors": [
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
        "that the latest NVIDIA driver is installed and running.\n",
        "Failed to initialize NVML: Driver/library version mismatch\n",
        "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that "
        "the NVIDIA Display Driver is properly installed and present in your system.\n",
        "Failed to initialize NVML: Insufficient Permissions\n",
        "Unable to determine the device handle for GPU 0000:02:00.0: GPU is lost. Reboot the "
        "system to recover this GPU\n",
        'Field "compute_cap" is not a valid field to query.\n',
    ],
    # The first byte picks the reader (export_text_fuzz.cpp): 0 cores, 1 compute
    # class, 2 driver version, 3 device name, 4 RFC 3339 time.
    "export_text": ["\x000-55,112-167", "\x003-1,99999999999", "\x01sm_90", "\x01gfx90a",
                    "\x02590.48.01", "\x02Mesa 24.0.5-1ubuntu1", "\x03AMD Radeon (Strix Halo)",
                    "\x03NVIDIA H100 80GB HBM3", "\x042026-11-29T15:00:00Z", "\x049999-99-99T99:99:99Z"],
    "data_size": ["100G", "1.5TiB", "500MB", "512", "10 M", "0", "G", "1e9"],
    "runtime_env": [
        "12:pids:/docker/3f1c0e9b5d2a\n0::/docker/3f1c0e9b5d2a\n",
        "0::/kubepods.slice/kubepods-besteffort.slice/cri-containerd-9d8c.scope\n",
        "0::/machine.slice/libpod-1a2b.scope/container\n",
        "processor\t: 0\nflags\t\t: fpu vme hypervisor\n",
        # This process's cgroup (a Slurm step on v2; Docker on v1), the mount
        # tables, and hwloc-gather's nofile-info (hwloc's 128arm tree).
        "0::/system.slice/slurmstepd.scope/job_4242/step_0/user/task_0\n",
        "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 "
        "rw,nsdelegate\n700 690 0:60 /docker/0123 /sys/fs/cgroup/cpuset ro - cgroup cgroup rw,cpuset\n",
        "none /dev/cpuset cpuset rw 0 0\ncgroup2 /dev/cgroup cgroup2 rw 0 0\n",
        "0-3,5-15\n", "max\n", "9223372036854771712\n", "Node 0 MemTotal:      8386704 kB\n",
        "OSName: Linux\nOSRelease: 5.15.0-rc1\nHostName: ubuntu\nArchitecture: aarch64\n"
        "FallbackNbProcessors: 128\nPageSize: 4096\n",
    ],
    "nvidia_visible_devices": ["0", "0,1,2,3", "GPU-8e0b", "MIG-1a2b,0", "1,-1,2", "", "0,,1"],
    # The example of src/probe/amdgpu_kfd_topology.h (kfd_topology.c, node_show()).
    "amdgpu_kfd_topology": [
        "cpu_cores_count 0\nsimd_count 1216\ngfx_target_version 90402\nvendor_id 4098\n"
        "device_id 29857\nlocation_id 49920\ndomain 0\ndrm_render_minor 128\nnum_xcc 8\n",
        "heap_type 1\nsize_in_bytes 206141652992\nflags 0\nwidth 4096\n",
    ],
    "nvidia_smi_list": ["GPU 0: NVIDIA GB10 (UUID: GPU-00000000-0000-0000-0000-000000000000)\n"],
    # The shape of src/probe/nvidia_smi_q.h (the real captures' -q sections seed it too).
    "nvidia_smi_q": [
        "Driver Version : 590.48.01\nCUDA Version : 13.1\nGPU 00000000:00:09.0\n"
        "    Product Name : NVIDIA H100 80GB HBM3\n    MIG Mode\n        Current : Enabled\n"
        "    MIG Device\n        Index : 0\n        Shared FB Memory Usage\n"
        "            Total : 40448 MiB\n    GPU UUID : GPU-0\n    FB Memory Usage\n"
        "        Total : 81559 MiB\n        Used : 537 MiB\n        Free : 81022 MiB\n",
    ],
    # Shapes of src/probe/nvidia_smi_mig.h: the table's MIG block, -lgip, -lgi.
    "nvidia_smi_mig": [
        "| MIG devices:                                                                            |\n"
        "|==================+==================================+===========+=======================|\n"
        "|  0    2   0   0  |              26MiB / 40448MiB    | 60      0 |  3   0    3    0    3 |\n"
        "|                  |               0MiB / 24739MiB    |           |                       |\n",
        "|   0  MIG 1g.10gb       19     7/7        9.75       No     16     1     0   |\n"
        "|                                                             1     1     0   |\n",
        "|   0  MIG 3g.40gb          9        2          0:4     |\n",
    ],
    # The no-driver stderr of fixtures/real/README.md, and link targets.
    "neuron_ls_json": [
        'level=fatal msg="Failed to load MLA system information" error="failed to discover '
        'Neuron devices"\n',
        '[{"neuron_device": 0, "bdf": "00:1e.0", "numa_node": "-1", "connected_to": null}]',
    ],
    # hwaccel-nvml's document (src/probe/cuda_nvml_doc.h).
    "cuda_nvml_doc": [
        '{"hwaccel_nvml": 1, "status": "ok", "driver_version": "580.159.04", "device_count": 1, '
        '"devices": [{"index": 0, "name": "NVIDIA H200", "uuid": "GPU-0", '
        '"pci_bus_id": "00000000:00:06.0", "memory_total": 150754820096, "memory_used": 0, '
        '"memory_free": 150110994432, "compute_capability": "9.0", "mig_mode": 1, '
        '"mig_devices": [{"index": 0, "name": "NVIDIA H200 MIG 3g.71gb", "uuid": "MIG-1", '
        '"gpu_instance_id": 1, "compute_instance_id": 0, "memory_total": 1, "memory_free": 1}], '
        '"nvlinks": [{"link": 0, "active": true, "remote_pci_bus_id": "00000000:07:00.0"}], '
        '"addressing_mode": "None", "errors": [{"call": "nvmlDeviceGetMemoryInfo", "rc": 3, '
        '"error": "Not Supported"}]}], "topology": [{"a": 0, "b": 1, "level": 40}], "errors": []}',
        '{"hwaccel_nvml": 1, "status": "no_library", "detail": "libnvidia-ml.so.1: cannot open"}',
    ],
    "accel_class": ["../../../0000:00:04.0", "../../../bus/pci/devices/0000:01:00.0", "accel0"],
    # hwsim import --tool 'ARGV=FILE' (docs/hwsim-spec.md).
    "tool_spec": [
        "nvidia-smi -L=gpus.txt",
        "nvidia-smi --query-gpu=name,memory.total --format=csv,noheader=out.csv",
        "'neuron-ls' --json-output=ls.json",
        '"/opt/qti-aic/tools/qaic-util" -q=q.txt',
        "vulkaninfo --summary=a\\ b.txt",
        "hl-smi -Q 'name,bus_id' -f csv=hl.csv",
    ],
    "hwsim_fault": ["hang:nvidia-smi", "exit:nvidia-smi=18:Failed to initialize NVML",
                    "gone:/proc/meminfo", "truncate:nvidia-smi topo -m=100", "free:cuda:0=2GiB",
                    "unload:nvidia", "flood:vulkaninfo --summary=1M", "eacces:/dev/nvidia0"],
}


class Seeds:
    def __init__(self, out):
        self.out = out
        self.count = {}

    def add(self, target, text):
        data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
        data = data[:MAX_SEED]
        folder = os.path.join(self.out, target)
        os.makedirs(folder, exist_ok=True)
        name = hashlib.sha1(data).hexdigest()
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
            self.count[target] = self.count.get(target, 0) + 1


def target_of(path):
    for pattern, target in FILE_TARGETS:
        if fnmatch.fnmatchcase(path, pattern):
            return target
    return None


# The other vendors' tools, by program name.
OTHER_TOOL_TARGETS = {
    "hl-smi": "hl_smi_csv",
    "neuron-ls": "neuron_ls_json",
    "hwaccel-nvml": "cuda_nvml_doc",
    "qaic-util": "qaic_util",
    "vulkaninfo": "vulkaninfo_summary",
    "system_profiler": "apple_system_profiler",
    "sysctl": "apple_system_profiler",
    "xpu-smi": "xpu_smi_discovery",
}


def tool_targets(argv):
    if argv and os.path.basename(str(argv[0])) == "vulkaninfo":
        # The summary parser, and the simulated Vulkan driver's model built from it.
        return ["vulkaninfo_summary", "vulkan_model"]
    if argv and os.path.basename(str(argv[0])) in OTHER_TOOL_TARGETS:
        return [OTHER_TOOL_TARGETS[os.path.basename(str(argv[0]))]]
    if not argv or os.path.basename(str(argv[0])) != "nvidia-smi":
        return []
    args = [str(a) for a in argv[1:]]
    targets = ["nvidia_smi_errors"]
    if any(a.startswith("--query-gpu") for a in args):
        targets.append("nvidia_smi_csv")
    if "-L" in args:
        targets.append("nvidia_smi_list")
    if "topo" in args:
        targets.append("nvidia_smi_topo")
    if args == ["-q"]:
        targets.append("nvml_q_facts")
    if any(a.startswith("--query-compute-apps") for a in args):
        targets.append("nvidia_smi_processes")
    if args in (["-q"], ["-a"]):
        targets.append("nvidia_smi_q")
    return targets


def from_fixtures(seeds):
    hosts = os.path.join(ROOT, "fixtures", "hosts")
    for name in sorted(os.listdir(hosts)):
        path = os.path.join(hosts, name)
        if name.endswith(".expected"):
            for golden in sorted(os.listdir(path)):
                if golden.endswith(".json"):
                    with open(os.path.join(path, golden), encoding="utf-8") as f:
                        seeds.add("saved_detection", f.read())
            continue
        if not name.endswith(".yaml"):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        seeds.add("snapshot", text)  # cut to MAX_SEED when larger: still a seed
        doc = yaml.safe_load(text)
        files = doc.get("files") or {}
        for file_path, entry in files.items():
            if isinstance(entry, str):
                target = target_of(file_path)
                if target:
                    seeds.add(target, entry)
        for tool in doc.get("tools") or []:
            run = tool.get("stdout") or ""
            err = tool.get("stderr") or ""
            if run:
                seeds.add("redaction", run)  # every tool's output is redacted on --record
            for target in tool_targets(tool.get("argv")):
                if run:
                    seeds.add(target, run)
                if err:
                    seeds.add(target if target in OTHER_TOOL_TARGETS.values() else "nvidia_smi_errors", err)
        # The kernel fill's input (tests/fuzz/kernel_fill_fuzz.cpp): a CPU count byte,
        # then cpuinfo, meminfo, one PCI device's attributes and topo -m, NUL-separated.
        def text_of(p):
            e = files.get(p)
            return e if isinstance(e, str) else ""
        pci = sorted({p.split("/")[5] for p in files if p.startswith("/sys/bus/pci/devices/")
                      and len(p.split("/")) > 6})
        dev = "/sys/bus/pci/devices/" + (pci[0] if pci else "none") + "/"
        link = files.get(dev + "driver")
        parts = [text_of("/proc/cpuinfo")[:16384], text_of("/proc/meminfo")] + [
            text_of(dev + a) for a in ("vendor", "device", "class", "revision", "numa_node")] + [
            link.get("link", "") if isinstance(link, dict) else ""]
        # Then the recorded topo -m, which the PCI layout reads.
        topo = [t.get("stdout") or "" for t in doc.get("tools") or []
                if t.get("argv") == ["nvidia-smi", "topo", "-m"]]
        if topo and topo[0]:
            parts.append(topo[0])
        seeds.add("kernel_fill", chr(int((doc.get("facts") or {}).get("cpus") or 1) % 64) + "\0".join(parts))
        visible = (doc.get("env") or {}).get("CUDA_VISIBLE_DEVICES")
        if visible is not None:
            seeds.add("nvidia_visible_devices", str(visible))
        # Small snapshots with one kind of content each, so that the snapshot
        # target starts from every shape of entry even when the fixture is big.
        base = {k: doc[k] for k in ("schema", "host", "facts", "env") if k in doc}
        small_files = {p: e for p, e in files.items() if not isinstance(e, str) or len(e) < 2048}
        seeds.add("snapshot", yaml.safe_dump(dict(base, files=small_files), sort_keys=False))
        seeds.add("snapshot", yaml.safe_dump(dict(base, tools=doc.get("tools") or []), sort_keys=False))


def capture_sections(text):
    """The `# $ command` sections of an nvidia_gpu_exporter capture."""
    sections = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("# $ "):
            command = lines[i][4:]
            j = i + 1
            while j < len(lines) and lines[j].startswith("#"):
                j += 1
            k = j
            while k < len(lines) and not lines[k].startswith("#####"):
                k += 1
            body = "\n".join(lines[j:k]).strip("\n") + "\n"
            sections.append((command, body))
            i = k
        else:
            i += 1
    return sections


def from_nvidia_captures(seeds, shared):
    for name in sorted(os.listdir(shared)):
        if not (name.startswith("nvidia-smi") and name.endswith(".txt")):
            continue
        with open(os.path.join(shared, name), encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        for command, body in capture_sections(text):
            argv = command.split()
            targets = tool_targets(argv)
            if "--query-gpu" in command and "--format=csv" not in command:
                targets = [t for t in targets if t != "nvidia_smi_csv"]
            for target in targets:
                seeds.add(target, body)


def ttar_entries(text):
    """(path, content) of the files of a ttar archive (prometheus/procfs)."""
    entries = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^Path: (.*)$", lines[i])
        if m and i + 1 < len(lines) and lines[i + 1].startswith("Lines: "):
            n = int(lines[i + 1][7:])
            body = "\n".join(lines[i + 2 : i + 2 + n])
            if body.endswith("EOF"):
                body = body[:-3]  # ttar: the file has no final newline
            else:
                body += "\n"
            entries.append((m.group(1), body.replace("NULLBYTE", "\0")))
            i += 2 + n
        else:
            i += 1
    return entries


def from_archives(seeds, shared):
    ttar = os.path.join(shared, "procfs-fixtures.ttar")
    if os.path.exists(ttar):
        with open(ttar, encoding="utf-8", errors="surrogateescape") as f:
            per_target = {}
            archive = f.read()
            for chunk in ttar_chunks(archive)[:PER_SOURCE_LIMIT]:
                seeds.add("ttar", chunk)
            for path, body in ttar_entries(archive):
                target = target_of("/" + path.split("/", 1)[1]) if "/" in path else None
                if target and per_target.get(target, 0) < PER_SOURCE_LIMIT:
                    per_target[target] = per_target.get(target, 0) + 1
                    seeds.add(target, body)
    for name in sorted(os.listdir(shared)):
        if not name.endswith(".tar.bz2"):
            continue
        per_target = {}
        with tarfile.open(os.path.join(shared, name), "r:bz2") as tar:
            for member in tar:
                if not member.isfile() or "/" not in member.name:
                    continue
                target = target_of("/" + member.name.split("/", 1)[1])
                if not target or per_target.get(target, 0) >= PER_SOURCE_LIMIT:
                    continue
                per_target[target] = per_target.get(target, 0) + 1
                seeds.add(target, tar.extractfile(member).read())


def from_kernel_tree(seeds):
    """fixtures/kernels: every .cu for kernel_guard, every .toml for kernel_toml
    (prefixed with the byte that picks which file of the tree it replaces)."""
    tree = os.path.join(ROOT, "fixtures", "kernels")
    which = {"DEVICES.toml": b"D", "FUSIONS.toml": b"F", "KERNEL_FAMILIES.toml": b"K"}
    for dirpath, _, files in os.walk(tree):
        if os.path.basename(dirpath) == "plans":
            continue
        for name in sorted(files):
            with open(os.path.join(dirpath, name), "rb") as f:
                data = f.read()
            if name.endswith(".cu"):
                seeds.add("kernel_guard", data)
            elif name.endswith(".toml"):
                seeds.add("kernel_toml", which.get(name, b"H") + data)


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def raw_strings(text):
    """The C++ raw string literals R"(...)" of a source file."""
    return re.findall(r'R"\((.*?)\)"', text, re.S)


def fenced(text, lang):
    return re.findall(r"```" + lang + r"\n(.*?)```", text, re.S)


def toml_pieces(text, table):
    """The text before the first [[table]], and each [[table]] block."""
    parts = re.split(r"(?m)^(?=\[\[" + re.escape(table) + r"\]\])", text)
    return parts[0], parts[1:]


def from_sources(seeds):
    """The user-written inputs: hwsim specs (the presets, the docs, the tests), the
    fault syntax, the planning catalogues (data/*.toml, whole and cut to one entry
    each) and Hugging Face config.json texts from the tests and docs."""
    for rel in ("sim/presets.cpp", "tests/unit/sim/spec_reader_test.cpp"):
        for text in raw_strings(read(rel)):
            if "hwsim-spec/1" in text:
                seeds.add("hwsim_spec", text)
    for text in fenced(read("docs/hwsim-spec.md"), "yaml"):
        seeds.add("hwsim_spec", text)
    kinds = "hang|signal|exit|missing|denied|eacces|empty|truncate|garbage|flood|gone|loop|unload|free"
    for rel in ("docs/hwsim-spec.md", "tests/unit/sim/mutate_test.cpp", "tests/unit/sim/fault_test.cpp"):
        if os.path.exists(os.path.join(ROOT, rel)):
            for text in re.findall(r'["`]((?:' + kinds + r'):[^"`\n]*)["`]', read(rel)):
                seeds.add("hwsim_fault", text)
    devices = read("data/devices.toml")
    seeds.add("plan_catalogue", devices)
    prelude, skus = toml_pieces(devices, "sku")
    for sku in skus[:PER_SOURCE_LIMIT]:
        seeds.add("plan_catalogue", prelude + sku)
    instances = read("data/instances.toml")
    seeds.add("plan_instances", instances)
    prelude, entries = toml_pieces(instances, "instance")
    for entry in entries[:PER_SOURCE_LIMIT]:
        seeds.add("plan_instances", prelude + entry)
    for rel in ("tests/unit/plan/model_spec_test.cpp", "tests/cli/plan_cli_test.cpp"):
        for text in raw_strings(read(rel)):
            if "num_hidden_layers" in text or "hidden_size" in text:
                seeds.add("model_config", text)
    for text in fenced(read("docs/planning.md"), "json"):
        seeds.add("model_config", text)
    for layers, moe in ((2, False), (1, True)):
        seeds.add("model_file", gguf_seed(layers, moe))
    import json
    import struct
    header = json.dumps({"__metadata__": {"format": "pt"},
                         "model.embed_tokens.weight": {"dtype": "BF16", "shape": [32, 16],
                                                       "data_offsets": [0, 1024]}}).encode()
    seeds.add("model_file", struct.pack("<Q", len(header)) + header)


def gguf_seed(layers, moe):
    """A small GGUF file (ggml/docs/gguf.md): llama metadata, tensor infos and
    their data (zeros), each tensor after the last, aligned to 32 as ggml
    lays them out: a header alone is refused (its data lies past the end)."""
    import struct

    def s(text):
        b = text.encode()
        return struct.pack("<Q", len(b)) + b

    kv = [s("general.architecture") + struct.pack("<I", 8) + s("llama")]
    for key, value in (("block_count", layers), ("embedding_length", 256),
                       ("feed_forward_length", 512), ("attention.head_count", 4),
                       ("attention.head_count_kv", 2), ("vocab_size", 32)):
        kv.append(s("llama." + key) + struct.pack("<II", 4, value))
    if moe:
        kv.append(s("llama.expert_count") + struct.pack("<II", 4, 4))
        kv.append(s("llama.expert_used_count") + struct.pack("<II", 4, 2))
    kv.append(s("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, 2) + s("a") + s("b"))
    tensors = [("token_embd.weight", (256, 4), 12), ("output.weight", (256, 4), 14)]
    for i in range(layers):
        tensors.append(("blk.%d.attn_q.weight" % i, (256, 2), 12))
        tensors.append(("blk.%d.attn_norm.weight" % i, (256,), 0))
        if moe:
            tensors.append(("blk.%d.ffn_up_exps.weight" % i, (256, 2, 2), 39))
    # (values per block, bytes per block) of the ggml types used above.
    blocks = {0: (1, 4), 12: (256, 144), 14: (256, 210), 39: (32, 17)}
    infos, offset = b"", 0
    for name, shape, kind in tensors:
        infos += s(name) + struct.pack("<I", len(shape)) + b"".join(struct.pack("<Q", d) for d in shape)
        infos += struct.pack("<IQ", kind, offset)
        count = 1
        for d in shape:
            count *= d
        size = count // blocks[kind][0] * blocks[kind][1]
        offset += (size + 31) // 32 * 32
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kv)) + b"".join(kv) + infos
    return head + b"\0" * ((-len(head)) % 32 + offset)


def from_regressions(seeds):
    """Inputs that once crashed or hung a target (tests/fuzz/regressions/<target>/),
    so that every smoke run starts from them."""
    top = os.path.join(ROOT, "tests", "fuzz", "regressions")
    if not os.path.isdir(top):
        return
    for target in sorted(os.listdir(top)):
        for name in sorted(os.listdir(os.path.join(top, target))):
            with open(os.path.join(top, target, name), "rb") as f:
                seeds.add(target, f.read())


def ttar_chunks(text, size=16 * 1024):
    """A ttar archive cut at entry boundaries into pieces of about `size`."""
    sep = "# ttar - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -\n"
    chunks, cur = [], ""
    for entry in text.split(sep):
        if cur and len(cur) + len(entry) > size:
            chunks.append(cur)
            cur = ""
        cur += entry + sep
    if cur:
        chunks.append(cur)
    return chunks


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--captures", default=os.path.join(ROOT, "fixtures", "real"))
    args = parser.parse_args()
    seeds = Seeds(args.out)
    from_fixtures(seeds)
    from_sources(seeds)
    from_regressions(seeds)
    if not os.path.isdir(args.captures):
        sys.exit(f"make_seeds: {args.captures} not found (fixtures/real is part of the repository)")
    from_nvidia_captures(seeds, args.captures)
    from_archives(seeds, args.captures)
    from_kernel_tree(seeds)
    for target, texts in EXTRA.items():
        for text in texts:
            seeds.add(target, text)
    summary = ", ".join(f"{t} {n}" for t, n in sorted(seeds.count.items()))
    print(f"make_seeds: new seeds: {summary or 'none (all present)'}")


if __name__ == "__main__":
    main()
