"""select() and plan(): the same outcomes as `hwaccel select` and `hwaccel plan`."""

import itertools
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

import hwaccel
from conftest import FIXTURES

# The request table of tests/prop/selection_prop_test.cpp (request_gen).
DEVICES = ["", "cuda:0", "cuda:3", "cpu:0", "pci:0000:18:00.0", "pci:28:00.0", "rocm:0",
           "vulkan:0"]
BACKENDS = ["", "cuda", "rocm", "cpu", "vulkan"]
REQUIREMENTS = ["gpu", "npu", "accelerator", "mem>=8G", "mem>=100G", "mem>=1K"]
REQUESTS = ([(d, b, []) for d, b in itertools.product(DEVICES, BACKENDS)] +
            [("", "", [r]) for r in REQUIREMENTS] +
            [("", "", list(p)) for p in itertools.combinations(REQUIREMENTS, 2)])
HOSTS = ["dgx-h100", "mi300x-8", "nvidia-no-driver", "h100-mig"]


def cli_args(device, backend, requirements):
    args = []
    if device:
        args += ["--device", device]
    if backend:
        args += ["--backend", backend]
    for r in requirements:
        args += ["--require", r]
    return args


def request_text(device, backend, requirements):
    return " ".join([device] + ([f"backend={backend}"] if backend else []) + requirements)


@pytest.mark.parametrize("host", HOSTS)
def test_selection_outcomes_match_the_cli(host, cli):
    path = FIXTURES / f"{host}.yaml"
    detection = hwaccel.detect(host=path)
    with ThreadPoolExecutor(4) as pool:
        outcomes = list(pool.map(lambda r: cli("select", "--host", path, *cli_args(*r)),
                                 REQUESTS))
    for request, (rc, out) in zip(REQUESTS, outcomes):
        try:
            got = (0, hwaccel.select(request_text(*request), host=detection).line + "\n")
        except hwaccel.Error as e:
            got = (e.exit_code, "")
        assert got == (rc, out), (host, request)


def test_a_selection_carries_the_device_and_the_reserve():
    s = hwaccel.select("gpu mem>=40G", host=FIXTURES / "dgx-h100.yaml", reserve="8G")
    assert s.label == "cuda:0" and s.device.name == "NVIDIA H100 80GB HBM3"
    assert (s.reserve_bytes, s.reserve_source) == (8 << 30, "flag")
    assert hwaccel.select(["cuda:3"], host=FIXTURES / "dgx-h100.yaml").label == "cuda:3"


def test_refusals_are_exceptions_with_the_cli_exit_codes():
    d = hwaccel.detect(host=FIXTURES / "cpu-only.yaml")
    with pytest.raises(hwaccel.Unsatisfiable, match="available: cpu:0") as e:
        d.select("gpu")
    assert e.value.exit_code == 9
    with pytest.raises(hwaccel.NotReady) as e:
        hwaccel.select("cuda:0", host=FIXTURES / "nvidia-no-driver.yaml")
    assert e.value.exit_code == 8 and isinstance(e.value, hwaccel.Unsatisfiable)
    with pytest.raises(hwaccel.UsageError, match="mem>=lots"):
        d.select("mem>=lots")
    with pytest.raises(hwaccel.BadReserve):
        d.select("", reserve="a lot")


def test_a_plan_is_the_cli_plan(cli):
    path = FIXTURES / "gx10.yaml"
    p = hwaccel.plan("Llama-3-70B", quant="q4_k_m", host=path)
    rc, out = cli("plan", "--host", path, "--model", "Llama-3-70B", "--quant", "q4_k_m", "--json")
    assert (rc, out) == (0, p.to_json()) and p.fits
    assert p.schema == "hwaccel-plan/1" and json.loads(out)["fits"] is True
    big = hwaccel.plan("Llama-3-70B", quant="fp16", context=32768, host=path)
    rc, out = cli("plan", "--host", path, "--model", "Llama-3-70B", "--quant", "fp16",
                  "--context", 32768, "--json")
    assert (rc, out) == (11, big.to_json()) and not big.fits
    with pytest.raises(hwaccel.UsageError, match="no-such-model"):
        hwaccel.plan("no-such-model", host=path)


def test_plan_takes_the_runtime_and_its_memory_options_as_the_cli_does(cli):
    path = FIXTURES / "dgx-h100.yaml"
    args = ("plan", "--host", path, "--on", "cuda:0", "--model", "Llama-3-70B", "--quant",
            "fp8", "--runtime", "vllm")
    # vLLM's own share (0.92) fits 69.6 GiB on one H100; 0.8 of it does not.
    p = hwaccel.plan("Llama-3-70B", quant="fp8", host=path, on="cuda:0", runtime="vllm")
    rc, out = cli(*args, "--json")
    assert (rc, out) == (0, p.to_json()) and p.fits
    tight = hwaccel.plan("Llama-3-70B", quant="fp8", host=path, on="cuda:0", runtime="vllm",
                         gpu_memory_utilization=0.8)
    rc, out = cli(*args, "--gpu-memory-utilization", 0.8, "--json")
    assert (rc, out) == (11, tight.to_json()) and not tight.fits
    assert json.loads(out)["runtime"]["gpu_memory_utilization"] == 0.8
    # llama.cpp without flash attention: one layer's scores in its compute buffer.
    gpu = FIXTURES / "rtx4090-amd-igpu.yaml"
    fa_off = hwaccel.plan("Llama-3-8B", quant="q8_0", context=65536, host=gpu, on="cuda:0",
                          flash_attn="off")
    rc, out = cli("plan", "--host", gpu, "--on", "cuda:0", "--model", "Llama-3-8B", "--quant",
                  "q8_0", "--context", 65536, "--flash-attn", "off", "--json")
    assert (rc, out) == (11, fa_off.to_json()) and not fa_off.fits
    with pytest.raises(hwaccel.UsageError, match="runtime ollama"):
        hwaccel.plan("Llama-3-8B", host=path, runtime="ollama")
    with pytest.raises(hwaccel.UsageError, match="flash_attn"):
        hwaccel.plan("Llama-3-8B", host=path, flash_attn="maybe")
    with pytest.raises(hwaccel.UsageError, match="gpu_memory_utilization"):
        hwaccel.plan("Llama-3-8B", host=path, gpu_memory_utilization=1.5)


def test_threads_detecting_at_once_agree():
    hosts = [FIXTURES / f"{h}.yaml" for h in ("dgx-h100", "gx10", "mi300x-8", "h100-mig")] * 4
    alone = {h: hwaccel.detect(host=h).to_json() for h in hosts}
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(lambda h: hwaccel.detect(host=h).to_json(), hosts))
        live = list(pool.map(lambda _: hwaccel.detect(only="cpu").devices[0].name, range(8)))
    assert together == [alone[h] for h in hosts]
    assert len(set(live)) == 1


def test_the_ordinal_is_the_runtimes_and_the_uuid_names_the_device(tmp_path):
    # CUDA_VISIBLE_DEVICES=2,3: nvidia-smi's GPU 2 is this process's CUDA device 0.
    text = (FIXTURES / "dgx-h100.yaml").read_text()
    assert "\nenv:\n" in text
    path = tmp_path / "dgx-2-3.yaml"
    path.write_text(text.replace("\nenv:\n", "\nenv:\n  CUDA_VISIBLE_DEVICES: \"2,3\"\n", 1))
    s = hwaccel.select(host=path)
    assert (s.label, s.ordinal) == ("cuda:2", 0)
    assert s.uuid == "GPU-bcde7d4e-3c75-1198-e575-422249826f39"
    assert s.line == f"cuda:2 ordinal=0 uuid={s.uuid}"
    d = hwaccel.detect(host=path)
    assert [x.ordinal for x in d.devices if x.backend == "cuda"] == [None, None, 0, 1] + [None] * 4
