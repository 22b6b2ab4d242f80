"""Typed views of the hwaccel-detect/1 document: one attribute per JSON field,
with the JSON's names (docs/cli.md describes them). ``None`` where the JSON has
null. Built from the exact bytes the CLI prints, so nothing is lost or renamed.
"""

from __future__ import annotations

import dataclasses
import sys
import typing
from dataclasses import dataclass
from typing import Any, List, Optional


def _build(tp: Any, value: Any) -> Any:
    """A value of type ``tp`` from decoded JSON (dataclasses, Optional, List)."""
    if value is None:
        return None
    origin = typing.get_origin(tp)
    if origin is typing.Union:
        (inner,) = [a for a in typing.get_args(tp) if a is not type(None)]
        return _build(inner, value)
    if origin in (list, List):
        (inner,) = typing.get_args(tp)
        return [_build(inner, v) for v in value]
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp, vars(sys.modules[__name__]))
        return tp(**{f.name: _build(hints[f.name], value.get(f.name))
                     for f in dataclasses.fields(tp) if f.init})
    if tp is float and isinstance(value, int):
        return float(value)
    return value


@dataclass(frozen=True)
class Reason:
    """Why a backend or a device is not usable: ``code`` ("driver-not-found") and ``detail``."""

    code: str
    detail: str

    def __str__(self) -> str:
        return f"{self.code}: {self.detail}" if self.detail else self.code


@dataclass(frozen=True)
class Backend:
    """One backend's line: ``status`` is "ready" or "unavailable" (then ``reason`` says why)."""

    name: str
    status: str
    devices: int
    reason: Optional[Reason]

    @property
    def ready(self) -> bool:
        return self.status == "ready"


@dataclass(frozen=True)
class Memory:
    """A device's memory in bytes. ``kind``: "discrete", "unified" (shared with the host:
    the numbers come from the host) or "host" (the CPU)."""

    total_bytes: Optional[int]
    free_bytes: Optional[int]
    kind: str
    source: Optional[str]
    working_set_limit_bytes: Optional[int]


@dataclass(frozen=True)
class Pci:
    bus_id: Optional[str]  # "0000:1b:00.0"
    vendor_id: Optional[str]  # "0x10de"
    device_id: Optional[str]  # "0x2330"


@dataclass(frozen=True)
class PcieState:
    generation: Optional[int]
    width: Optional[int]
    gt_per_s: Optional[float]
    gbytes_per_s: Optional[float]


@dataclass(frozen=True)
class PcieLink:
    """A PCI function's link as sysfs reports it: now (``current``) and at best (``max``)."""

    current: Optional[PcieState]
    max: Optional[PcieState]
    below_max: Optional[bool]
    source: Optional[str]


@dataclass(frozen=True)
class Partition:
    """A MIG instance or compute partition: its profile and the whole device it is part of."""

    profile: str
    parent_physical_id: str
    parent_index: int


@dataclass(frozen=True)
class Device:
    """One device seen through one backend. The same physical device seen through two
    backends is two Devices with one ``physical_id``."""

    backend: str
    index: int
    # The ordinal this process's runtime opens the device by (CUDA after
    # CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER, HIP after ROCR_/HIP_VISIBLE_DEVICES);
    # None when that runtime would not show it or the backend has no such numbering.
    ordinal: Optional[int]
    api: str
    name: str
    vendor: Optional[str]
    type: str  # cpu | gpu | npu | tpu | asic | other
    status: str  # ready | unavailable
    reason: Optional[Reason]
    memory: Memory
    compute_class: Optional[str]
    driver_version: Optional[str]
    physical_id: str
    pci: Pci
    pcie: Optional[PcieLink]
    uuid: Optional[str]
    numa_node: Optional[int]
    cpu_affinity: Optional[str]
    partition: Optional[Partition]
    partitioned: bool
    provenance: List[str]

    @property
    def label(self) -> str:
        """ "cuda:0": what ``select`` returns and what ``hwaccel select`` prints."""
        return f"{self.backend}:{self.index}"

    @property
    def ready(self) -> bool:
        return self.status == "ready"

    def __str__(self) -> str:
        state = "ready" if self.ready else f"unavailable ({self.reason})"
        return f"{self.label} {self.name} {state}"


@dataclass(frozen=True)
class Link:
    """An interconnect between two devices (by physical_id): nvlink, xgmi, pcie path..."""

    a: str
    b: str
    kind: str
    lanes: Optional[int]
    path: Optional[str]
    source: Optional[str]


@dataclass(frozen=True)
class Warning:
    backend: str
    message: str

    def __str__(self) -> str:
        return f"{self.backend}: {self.message}"


@dataclass(frozen=True)
class HostFacts:
    hostname: Optional[str]
    os: Optional[str]
    arch: Optional[str]
    kernel: Optional[str]
    cpus: Optional[int]
    page_size: Optional[int]


@dataclass(frozen=True)
class Dmi:
    sys_vendor: Optional[str]
    product_name: Optional[str]
    board_vendor: Optional[str]
    bios_vendor: Optional[str]


@dataclass(frozen=True)
class Environment:
    """Bare metal, VM, container, cloud, Kubernetes: what was found and the evidence."""

    summary: str
    virtual_machine: bool
    hypervisor: Optional[str]
    vm_evidence: List[str]
    container: Optional[str]
    container_evidence: List[str]
    kubernetes: bool
    kubernetes_evidence: List[str]
    cloud: Optional[str]
    instance_type: Optional[str]
    dmi: Optional[Dmi]


@dataclass(frozen=True)
class NetworkPort:
    device: str
    port: Optional[int]
    state: Optional[str]
    link_layer: Optional[str]
    rate: Optional[str]
    gbits_per_s: Optional[float]
    gbytes_per_s: Optional[float]
    numa_node: Optional[int]
    pci_bus_id: Optional[str]
    pcie: Optional[PcieLink]


@dataclass(frozen=True)
class Storage:
    name: str
    kind: Optional[str]
    model: Optional[str]
    transport: Optional[str]
    rotational: Optional[bool]
    size_bytes: Optional[int]
    pci_bus_id: Optional[str]
    pcie: Optional[PcieLink]
    why: Optional[str]


@dataclass(frozen=True)
class HostResources:
    """What the machine has: CPUs (sockets, cores, threads), NUMA nodes, memory, and the
    file each figure came from."""

    cpu_list: Optional[str]
    cpus_source: Optional[str]
    sockets: Optional[int]
    cores: Optional[int]
    threads: Optional[int]
    topology_source: Optional[str]
    numa_nodes: Optional[int]
    numa_source: Optional[str]
    memory_bytes: Optional[int]
    memory_source: Optional[str]


@dataclass(frozen=True)
class UsableResources:
    """What this process may use (a container's, pod's or Slurm step's cgroup), and what
    limits it (``limited_by``; empty where nothing does)."""

    cpu_list: Optional[str]
    sockets: Optional[int]
    cores: Optional[int]
    threads: Optional[int]
    numa_nodes: Optional[int]
    memory_bytes: Optional[int]
    limited_by: List[str]


@dataclass(frozen=True)
class Cgroup:
    version: int
    path: Optional[str]


@dataclass(frozen=True)
class Resources:
    """Host totals beside what this process may use."""

    host: HostResources
    usable: UsableResources
    cgroup: Optional[Cgroup]


@dataclass(frozen=True)
class System:
    """System facts: the environment, CPU/memory resources, network ports (RDMA), storage."""

    environment: Environment
    network_ports: List[NetworkPort]
    resources: Resources
    storage: List[Storage]
    bandwidth_unit: str
