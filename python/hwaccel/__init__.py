"""hwaccel: which accelerators this machine has, which are usable and why not.

    >>> import hwaccel
    >>> d = hwaccel.detect()                       # this machine (or host="snapshot.yaml")
    >>> d.devices[0].label, d.devices[0].memory.total_bytes
    >>> hwaccel.select("gpu mem>=40G").device      # or raises hwaccel.Unsatisfiable
    >>> hwaccel.plan("Llama-3-70B", quant="q4_k_m").fits

The same detection, selection and planning as the ``hwaccel`` CLI (the JSON of
``Detection.to_json()`` is the bytes ``hwaccel detect --json`` prints), in
process: no subprocess, probes run without the GIL. See docs/python.md.
"""

from __future__ import annotations

import json as _json
import os as _os
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from . import _hwaccel
from ._errors import (BadInput, BadReserve, CannotWrite, Error, NotCompiled, NotReady,
                      Unsatisfiable, UsageError, from_failure)
from ._types import (Backend, Device, Dmi, Environment, HostFacts, Link, Memory, NetworkPort,
                     Partition, Pci, PcieLink, PcieState, Reason, Resources, HostResources,
                     UsableResources, Cgroup, Storage, System, Warning,
                     _build)

__version__: str = _hwaccel.__version__

__all__ = [
    "detect", "select", "plan", "record", "backends", "Detection", "Selection", "Plan",
    "Backend", "Device", "Memory", "Pci", "PcieLink", "PcieState", "Partition", "Reason",
    "Link", "Warning", "HostFacts", "System", "Resources", "HostResources", "UsableResources",
    "Cgroup", "Environment", "Dmi", "NetworkPort", "Storage",
    "Error", "UsageError", "BadInput", "CannotWrite", "BadReserve", "Unsatisfiable",
    "NotCompiled", "NotReady",
]

PathLike = Union[str, "_os.PathLike[str]"]


def _call(function: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return function(*args, **kwargs)
    except _hwaccel._Failure as failure:
        raise from_failure(failure) from None


def _names(value: Union[None, str, Iterable[str]]) -> List[str]:
    """"cuda,cpu" or ["cuda", "cpu"] -> ["cuda", "cpu"]."""
    if value is None:
        return []
    if isinstance(value, str):
        return [v for v in value.split(",") if v]
    return [str(v) for v in value]


class Detection:
    """What one detection found: every backend's line, every device, warnings, host
    and system facts (the fields of hwaccel-detect/1)."""

    schema: str
    backends: List[Backend]
    devices: List[Device]
    warnings: List[Warning]
    links: List[Link]
    host: HostFacts
    system: System
    discovered_at: Optional[str]

    def __init__(self, detected: Any) -> None:
        self._detected = detected
        self._json: str = _call(detected.json)
        doc = _json.loads(self._json)
        self.schema = doc["schema"]
        self.backends = _build(List[Backend], doc["backends"])
        self.devices = _build(List[Device], doc["devices"])
        self.warnings = _build(List[Warning], doc["warnings"])
        self.links = _build(List[Link], doc["links"])
        self.host = _build(HostFacts, doc["host"])
        self.system = _build(System, doc["system"])
        self.discovered_at = doc["discovered_at"]

    @property
    def source(self) -> str:
        """Where it came from: "live", "root(DIR)" or "snapshot(FILE)"."""
        return self._detected.source

    def to_json(self) -> str:
        """The hwaccel-detect/1 document, byte for byte what ``hwaccel detect --json`` prints."""
        return self._json

    def to_dict(self) -> Dict[str, Any]:
        return _json.loads(self._json)

    def text(self) -> str:
        """The report ``hwaccel detect`` prints."""
        return self._detected.text()

    def device(self, label: str) -> Device:
        """The device "cuda:0" (KeyError when there is none)."""
        for d in self.devices:
            if d.label == label:
                return d
        raise KeyError(label)

    def backend(self, name: str) -> Backend:
        for b in self.backends:
            if b.name == name:
                return b
        raise KeyError(name)

    @property
    def accelerators(self) -> List[Device]:
        """The ready devices that are not the CPU."""
        return [d for d in self.devices if d.ready and d.type != "cpu"]

    def select(self, request: Union[None, str, Sequence[str]] = None,
               reserve: Union[None, str, int] = None) -> "Selection":
        """The device a request gets here; see :func:`select`."""
        return select(request, reserve=reserve, host=self)

    def plan(self, model: str, **options: Any) -> "Plan":
        """Whether ``model`` fits here; see :func:`plan`."""
        return plan(model, host=self, **options)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        ready = ", ".join(d.label for d in self.devices if d.ready)
        return f"<hwaccel.Detection {self.source}: {len(self.devices)} devices, ready: {ready}>"


@dataclass(frozen=True)
class Selection:
    """The device a request got, why, and the reserve that applied (as ``hwaccel select``)."""

    device: Device  # as after the reserve (its memory.free_bytes is the device's own)
    reason: str
    reserve_bytes: int
    reserve_source: str  # "default", "env" (HWACCEL_RESERVE_BYTES) or "flag" (the argument)

    @property
    def label(self) -> str:
        return self.device.label

    @property
    def ordinal(self) -> Optional[int]:
        """The ordinal this process's CUDA or HIP runtime opens the device by (None: hidden,
        or a backend without such a numbering); ``label`` keeps the backend's own index."""
        return self.device.ordinal

    @property
    def uuid(self) -> Optional[str]:
        """The device's UUID ("GPU-..." / "MIG-..."): what CUDA_VISIBLE_DEVICES names it by."""
        return self.device.uuid

    @property
    def line(self) -> str:
        """What ``hwaccel select`` prints: "cuda:2 ordinal=0 uuid=GPU-..."."""
        out = self.label
        if self.ordinal is not None:
            out += f" ordinal={self.ordinal}"
        elif self.device.backend in ("cuda", "rocm"):
            out += " ordinal=none"
        if self.uuid:
            out += f" uuid={self.uuid}"
        return out

    def __str__(self) -> str:
        return self.device.label


class Plan:
    """``hwaccel plan``'s answer: ``fits``, and the hwaccel-plan/1 document's fields as
    attributes (``plan.model``, ``plan.chosen``, ``plan.estimate``... see docs/cli.md)."""

    def __init__(self, json_text: str, text: str, fits: bool) -> None:
        self._json = json_text
        self._text = text
        self.fits: bool = fits
        self.data: Dict[str, Any] = _json.loads(json_text)

    def __getattr__(self, name: str) -> Any:
        data = self.__dict__.get("data", {})
        if name in data:
            return data[name]
        raise AttributeError(name)

    @property
    def chosen(self) -> Optional[Dict[str, Any]]:
        """The plan that was chosen ("single cuda:0", its shards and estimate), or None."""
        return next((p for p in self.data.get("plans", []) if p.get("chosen")), None)

    def to_json(self) -> str:
        """The hwaccel-plan/1 document, as ``hwaccel plan --json`` prints it."""
        return self._json

    def text(self) -> str:
        """The report ``hwaccel plan`` prints."""
        return self._text

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"<hwaccel.Plan fits={self.fits}>"


def _source(host: Union[None, PathLike, Detection]) -> Any:
    if isinstance(host, Detection):
        return host._detected
    return detect(host)._detected


def detect(host: Optional[PathLike] = None, only: Union[None, str, Iterable[str]] = None,
           timeout: Optional[float] = None, root: Optional[PathLike] = None, *,
           root_tools: bool = False) -> Detection:
    """Detects this machine, or the host recorded in the snapshot file ``host``.

    ``only``: these backends ("cuda,cpu" or a list); ``timeout``: seconds each vendor
    tool may run (default 5); ``root``: read files under this folder as if it were /.
    Under ``root`` the tree is the machine: a vendor tool runs only where the tree has
    its program, unless ``root_tools=True`` (``--root-tools``) runs this machine's.
    Raises :class:`BadInput` for an unusable snapshot (the message names file:line:col)
    and :class:`UsageError` for an unknown backend. The probes run without the GIL.
    """
    return Detection(_call(_hwaccel.detect, None if host is None else _os.fspath(host),
                           _names(only), timeout, None if root is None else _os.fspath(root),
                           root_tools=root_tools))


def _request_text(request: Union[None, str, Sequence[str]]) -> str:
    if request is None:
        return ""
    if isinstance(request, str):
        return request
    return " ".join(request)


def select(request: Union[None, str, Sequence[str]] = None,
           reserve: Union[None, str, int] = None,
           host: Union[None, PathLike, Detection] = None) -> Selection:
    """The device a request gets, as ``hwaccel select``.

    ``request``: "" or None (the default choice), a device ("cuda:1",
    "pci:0000:3b:00.0"), a backend ("rocm") and requirements ("gpu", "npu", "tpu",
    "accelerator", "mem>=40G"), separated by spaces or commas, or a list of those.
    ``reserve``: memory that must stay free on the device ("4G", or bytes; default
    HWACCEL_RESERVE_BYTES of the host, else 3584 MiB). ``host``: a snapshot file or
    a Detection (default: detect this machine).

    Raises :class:`Unsatisfiable` (exit 9), :class:`NotReady` (8) or
    :class:`NotCompiled` (7), both subclasses of Unsatisfiable, :class:`UsageError`
    for a malformed request (2) and :class:`BadReserve` (6).
    """
    detected = _source(host)
    if isinstance(reserve, int):
        reserve = str(reserve)
    entry, reason, device_json, reserve_bytes, reserve_source = _call(
        _hwaccel.select, detected, _request_text(request), reserve)
    return Selection(_build(Device, _json.loads(device_json)), reason, reserve_bytes,
                     reserve_source)


def plan(model: str, quant: Optional[str] = None, context: Optional[int] = None,
         host: Union[None, PathLike, Detection] = None, *, kv: str = "fp16", batch: int = 1,
         decode_batch: int = 32, reserve: Union[None, str, int] = None,
         on: Union[None, str, Iterable[str]] = None, add: Union[None, str, Iterable[str]] = None,
         remove: Union[None, str, Iterable[str]] = None, runtime: Optional[str] = None,
         flash_attn: str = "auto", gpu_memory_utilization: Optional[float] = None) -> Plan:
    """Whether ``model`` fits this machine (or ``host``), how it would be sharded and how
    fast it would run, as ``hwaccel plan``.

    ``model``: a built-in name ("Llama-3-70B") or a path to a Hugging Face config.json;
    ``quant``: weight format (default the model's dtype); ``context``: tokens per
    sequence (default 4096); ``on``/``add``/``remove``: as ``--on``/``--add``/``--remove``;
    ``runtime``, ``flash_attn`` and ``gpu_memory_utilization``: as ``--runtime``,
    ``--flash-attn`` and ``--gpu-memory-utilization`` (default: the runtime assumed,
    flash attention "auto", vLLM's own share).
    A plan that does not fit is not an error: ``Plan.fits`` is False.
    """
    detected = _source(host)
    if isinstance(reserve, int):
        reserve = str(reserve)
    json_text, text, fits = _call(_hwaccel.plan, detected, model, quant, kv,
                                  4096 if context is None else context, batch, decode_batch,
                                  reserve, _names(on), _names(add), _names(remove), runtime,
                                  flash_attn, gpu_memory_utilization)
    return Plan(json_text, text, fits)


def record(path: PathLike, redact: bool = True, *, force: bool = False,
           only: Union[None, str, Iterable[str]] = None, timeout: Optional[float] = None,
           root: Optional[PathLike] = None, root_tools: bool = False) -> Detection:
    """Detects this machine and records every answer into the snapshot file ``path``
    (as ``hwaccel detect --record``); UUIDs, serials, hostnames and MACs become stable
    pseudonyms unless ``redact=False``. An existing file is replaced only with
    ``force=True``. Returns the detection; ``detect(host=path)`` replays it exactly.
    """
    return Detection(_call(_hwaccel.detect, None, _names(only), timeout,
                           None if root is None else _os.fspath(root), _os.fspath(path),
                           redact, force, root_tools))


def backends() -> List[str]:
    """Every backend this build reports, in report order."""
    return list(_hwaccel.backends())
