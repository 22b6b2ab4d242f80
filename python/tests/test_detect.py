"""detect(): the same document as the CLI, every field typed, failures as exceptions."""

import dataclasses
import json

import pytest

import hwaccel
from conftest import FIXTURES, fixture_hosts


@pytest.mark.parametrize("snapshot", fixture_hosts(), ids=lambda p: p.stem)
def test_every_fixture_detects_as_the_cli_prints(snapshot, cli):
    rc, out = cli("detect", "--host", snapshot, "--json")
    assert rc == 0
    d = hwaccel.detect(host=snapshot)
    assert d.to_json() == out  # byte for byte
    doc = json.loads(out)
    # Every field of the JSON is an attribute with the JSON's name and value.
    assert [dataclasses.asdict(x) for x in d.devices] == doc["devices"]
    assert [dataclasses.asdict(x) for x in d.backends] == doc["backends"]
    assert [dataclasses.asdict(x) for x in d.warnings] == doc["warnings"]
    assert [dataclasses.asdict(x) for x in d.links] == doc["links"]
    assert dataclasses.asdict(d.host) == doc["host"]
    assert dataclasses.asdict(d.system) == doc["system"]
    assert (d.schema, d.discovered_at) == (doc["schema"], doc["discovered_at"])


def test_typed_attributes_of_a_gb10():
    d = hwaccel.detect(host=FIXTURES / "gx10.yaml")
    gpu = d.device("cuda:0")
    assert (gpu.name, gpu.memory.kind, gpu.compute_class) == ("NVIDIA GB10", "unified", "sm_121")
    assert gpu.memory.total_bytes == 128520671232 and isinstance(gpu.memory.total_bytes, int)
    assert gpu.pci.bus_id == "000f:01:00.0" and gpu.ready
    assert d.backend("rocm").reason.code == "no-device"
    assert [b.name for b in d.backends] == hwaccel.backends()
    assert d.accelerators == [gpu]
    assert d.host.arch == "aarch64" and d.system.environment.summary == "bare metal"
    assert "NVIDIA GB10" in str(d)  # the CLI's text report


def test_a_missing_driver_is_a_device_with_its_reason():
    d = hwaccel.detect(host=FIXTURES / "nvidia-no-driver.yaml")
    gpu = d.devices[0]
    assert not gpu.ready and gpu.reason.code == "driver-not-found"
    assert gpu.memory.total_bytes is None


def test_only_and_timeout_as_the_cli(cli):
    d = hwaccel.detect(host=FIXTURES / "dgx-h100.yaml", only=["cuda", "cpu"])
    rc, out = cli("detect", "--host", FIXTURES / "dgx-h100.yaml", "--only", "cuda,cpu", "--json")
    assert d.to_json() == out
    assert [b.name for b in d.backends] == ["cuda", "cpu"]
    live = hwaccel.detect(only="cpu", timeout=2)
    assert live.source == "live" and live.devices[0].label == "cpu:0"


@pytest.mark.parametrize("text, place", [
    ("snapshot: 1\nfiles: [\n", ":3:1:"),
    ("schema: hwaccel-snapshot/1\nfiles:\n  /proc/x: {a: b}: c\n", ":3:"),
    ("\tbad", ":1:2:"),
])
def test_a_bad_snapshot_raises_with_its_location(tmp_path, cli, text, place):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(hwaccel.BadInput) as e:
        hwaccel.detect(host=path)
    assert str(e.value).startswith(str(path) + place), str(e.value)
    assert e.value.exit_code == 4
    rc, _ = cli("detect", "--host", path)
    assert rc == 4


def test_failures_are_exceptions_not_crashes(tmp_path):
    with pytest.raises(hwaccel.BadInput, match="missing.yaml"):
        hwaccel.detect(host=tmp_path / "missing.yaml")
    with pytest.raises(hwaccel.BadInput):
        hwaccel.detect(host=tmp_path)  # a folder
    with pytest.raises(hwaccel.UsageError, match="unknown backend \"nvidia\""):
        hwaccel.detect(only="nvidia")
    with pytest.raises(hwaccel.UsageError):
        hwaccel.detect(host=FIXTURES / "gx10.yaml", root=tmp_path)
    with pytest.raises(TypeError):
        hwaccel.detect(timeout="soon")


def test_record_then_replay_is_the_same_detection(tmp_path):
    path = tmp_path / "me.yaml"
    recorded = hwaccel.record(path, redact=False)
    assert hwaccel.detect(host=path).to_json() == recorded.to_json()
    with pytest.raises(hwaccel.CannotWrite, match="exists"):
        hwaccel.record(path)  # a user's file is kept unless force=True
    recorded = hwaccel.record(path, force=True)  # redacted: the hostname is a pseudonym
    replayed = hwaccel.detect(host=path)
    assert [d.label for d in replayed.devices] == [d.label for d in recorded.devices]
    assert replayed.host.hostname != recorded.host.hostname


def test_sixteen_threads_record_one_path_and_the_last_wins(tmp_path):
    # One temporary per write, not per process: every call succeeds (they got
    # CannotWrite), the file is one whole recording, and no temporary is left.
    from concurrent.futures import ThreadPoolExecutor
    path = tmp_path / "me.yaml"
    with ThreadPoolExecutor(16) as pool:
        recorded = list(pool.map(lambda _: hwaccel.record(path, force=True), range(16)))
    assert len(recorded) == 16
    replayed = hwaccel.detect(host=path)
    assert [d.label for d in replayed.devices] == [d.label for d in recorded[0].devices]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["me.yaml"]


def test_the_gil_is_released_while_a_probe_runs(tmp_path, monkeypatch):
    # A fake nvidia-smi that waits until this thread writes to a FIFO: only
    # possible while detect() runs in another thread if it released the GIL.
    import os
    import threading
    import time
    fifo = tmp_path / "go"
    os.mkfifo(fifo)
    tool = tmp_path / "nvidia-smi"
    tool.write_text(f"#!/bin/sh\n[ -e {tmp_path}/done ] || {{ read line < {fifo}; "
                    f": > {tmp_path}/done; }}\necho garbage\n")
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    result = {}
    worker = threading.Thread(target=lambda: result.update(d=hwaccel.detect(only="cuda",
                                                                             timeout=2)))
    worker.start()
    while True:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # ENXIO until the tool reads
            break
        except OSError:
            assert worker.is_alive(), "detect() finished before this thread could run"
            time.sleep(0.001)
    os.write(fd, b"go\n")
    os.close(fd)
    worker.join()
    reason = result["d"].backend("cuda").reason
    assert reason is None or reason.code != "timeout", reason


def test_a_root_tree_runs_this_machines_tools_only_with_root_tools(tmp_path, monkeypatch):
    # A gathered tree (only /proc) says nothing of nvidia-smi: this machine's
    # stand-in, first on PATH, must not run unless root_tools=True asks for it.
    bin_dir, mark, tree = tmp_path / "bin", tmp_path / "ran", tmp_path / "tree"
    bin_dir.mkdir()
    tool = bin_dir / "nvidia-smi"
    tool.write_text(f"#!/bin/sh\necho nvidia-smi >> {mark}\nexit 1\n")
    tool.chmod(0o755)
    (tree / "proc").mkdir(parents=True)
    (tree / "proc" / "meminfo").write_text("MemTotal:       16384000 kB\n")
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")

    kept = hwaccel.detect(root=tree, only="cuda")
    assert not mark.exists()
    assert "the tree has no nvidia-smi" in kept.backend("cuda").reason.detail
    assert "root_tools" not in kept.source and kept.source == f"root({tree})"

    hwaccel.detect(root=tree, only="cuda", root_tools=True)
    assert mark.read_text() == "nvidia-smi\n"
    with pytest.raises(hwaccel.UsageError, match="root_tools needs root"):
        hwaccel.detect(root_tools=True)
