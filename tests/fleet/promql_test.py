#!/usr/bin/env python3
"""The PromQL of docs/exports.md run by a real Prometheus on loopback.

A real `prometheus` (started here, stopped at the end) scrapes, from a loopback
HTTP server, our export of a non-MIG host (dgx-h100: 8 GPUs), our export of a MIG
host (h100-mig: 4 MIG slices of one GPU) and DCGM-shaped series for the same
devices (the GPUs' `UUID`; on the MIG host one series per GPU instance, with its
`GPU_I_ID`, as dcgm-exporter writes them). Every query of the ```promql block of
docs/exports.md is then asked of it and its result vector is compared with the one
this file expects; `on(UUID)` alone is shown to fail on the MIG host (a GPU's
slices share its UUID), which is why the documented join is `on(UUID, GPU_I_ID)`.
Usage: promql_test.py HWACCEL SOURCE_DIR. Exit 77 without prometheus unless CI=true.
"""
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

hwaccel, src = sys.argv[1], sys.argv[2]


def say(text):
    print(f"promql: {text}", flush=True)


if not shutil.which("prometheus"):
    if os.environ.get("CI") == "true":
        say("prometheus missing (ci/setup fleet installs it)")
        sys.exit(1)
    say("prometheus missing: skipped")
    sys.exit(77)

tmp = tempfile.mkdtemp(prefix="hwaccel-promql-")
served = os.path.join(tmp, "served")
os.mkdir(served)


def export(fixture):
    out = subprocess.run(
        [hwaccel, "export", "prometheus", "-q", "--host", f"{src}/fixtures/hosts/{fixture}.yaml"],
        check=True, capture_output=True, text=True).stdout
    with open(os.path.join(served, fixture), "w") as f:
        f.write(out)
    return out


def labels_of(line):
    return dict(re.findall(r'(\w+)="([^"]*)"', line.split("}")[0]))


# Our series, and DCGM's for the same devices: a value per device to follow through
# the join (whole GPUs 10+gpu; MIG instances 100+GPU_I_ID).
ours = {n: export(n) for n in ("dgx-h100", "h100-mig")}
dcgm = ["# TYPE DCGM_FI_PROF_GR_ENGINE_ACTIVE gauge", "# TYPE DCGM_FI_DEV_FB_FREE gauge"]
devices = {}  # (UUID, GPU_I_ID) -> (hwaccel_device, driver_version, value)
for host, text in ours.items():
    for line in text.splitlines():
        if not line.startswith("hwaccel_device_info{"):
            continue
        l = labels_of(line)
        key = (l["UUID"], l.get("GPU_I_ID", ""))
        value = 100 + int(key[1]) if key[1] else 10 + int(l["gpu"])
        devices[key] = (l["hwaccel_device"], l["driver_version"], value)
        mig = f',GPU_I_PROFILE="{l["GPU_I_PROFILE"]}",GPU_I_ID="{key[1]}"' if key[1] else ""
        common = (f'gpu="{l["gpu"]}",UUID="{l["UUID"]}",pci_bus_id="{l["pci_bus_id"]}",'
                  f'modelName="{l["modelName"]}",Hostname="{host}"{mig}')
        dcgm.append(f"DCGM_FI_PROF_GR_ENGINE_ACTIVE{{{common}}} {value}")
        dcgm.append(f"DCGM_FI_DEV_FB_FREE{{{common}}} {value * 1000}")
with open(os.path.join(served, "dcgm"), "w") as f:
    f.write("\n".join(dcgm) + "\n")
assert len(devices) == 12, devices


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Quiet(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=served, **k)

    def log_message(self, *a):
        pass


class Files(http.server.ThreadingHTTPServer):
    def handle_error(self, *a):  # a scrape Prometheus gave up on (a loaded machine)
        pass


files = Files(("127.0.0.1", 0), Quiet)
threading.Thread(target=files.serve_forever, daemon=True).start()
files_at = f"127.0.0.1:{files.server_address[1]}"

port = free_port()
with open(os.path.join(tmp, "prometheus.yml"), "w") as f:
    f.write("global:\n  scrape_interval: 500ms\n  scrape_timeout: 500ms\nscrape_configs:\n")
    for job in ("dgx-h100", "h100-mig", "dcgm"):
        f.write(f"  - job_name: {job}\n    metrics_path: /{job}\n"
                f"    static_configs: [{{targets: ['{files_at}']}}]\n")
log = open(os.path.join(tmp, "prometheus.log"), "w")
server = subprocess.Popen(
    ["prometheus", f"--config.file={tmp}/prometheus.yml", f"--storage.tsdb.path={tmp}/data",
     f"--web.listen-address=127.0.0.1:{port}"], stdout=log, stderr=subprocess.STDOUT)


def query(expr):
    url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    try:
        return json.load(urllib.request.urlopen(url, timeout=5))
    except urllib.error.HTTPError as e:  # 4xx/5xx carry a JSON error once it is up
        try:
            return json.load(e)
        except ValueError:  # "Service Unavailable" while the TSDB opens
            return {"status": "error", "error": f"HTTP {e.code} (starting)"}


fail = False
try:
    # Up to 20 s for Prometheus to start and scrape every job once.
    deadline = time.monotonic() + 20
    while True:
        try:
            r = query("count(up == 1) + count(DCGM_FI_DEV_FB_FREE) + count(hwaccel_device_info)")
            if r.get("data", {}).get("result") and r["data"]["result"][0]["value"][1] == "27":
                break
        except OSError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            log.flush()
            say("FAIL: prometheus did not scrape the three jobs:\n" + open(log.name).read()[-2000:])
            sys.exit(1)
        time.sleep(0.1)

    doc = open(f"{src}/docs/exports.md").read()
    block = re.search(r"```promql\n(.*?)```", doc, re.S)
    exprs = [l for l in block.group(1).splitlines() if l.strip() and not l.startswith("#")] if block else []

    def result(expr):
        r = query(expr)
        if r.get("status") != "success":
            return None, r.get("error", r)
        return r["data"]["result"], None

    def by_device(rows, keep):
        return sorted((r["metric"]["UUID"], r["metric"].get("GPU_I_ID", ""),
                       *(r["metric"].get(k, "") for k in keep), r["value"][1]) for r in rows)

    # What each documented query must answer: every device of both hosts, whole
    # GPUs and MIG slices alike, with our labels added to DCGM's value.
    want_activity = sorted((u, i, d, v, str(n)) for (u, i), (d, v, n) in devices.items())
    want_free = sorted((u, i, d, str(n * 1000)) for (u, i), (d, v, n) in devices.items())
    expected = {
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE * on(UUID, GPU_I_ID) group_left(hwaccel_device, driver_version) hwaccel_device_info":
            lambda rows: by_device(rows, ["hwaccel_device", "driver_version"]) == want_activity,
        "DCGM_FI_DEV_FB_FREE * on(UUID, GPU_I_ID) group_left(hwaccel_device) (hwaccel_device_ready == 1)":
            lambda rows: by_device(rows, ["hwaccel_device"]) == want_free,
    }
    if sorted(exprs) != sorted(expected):
        say(f"FAIL: docs/exports.md's promql block holds {exprs}; this test knows {list(expected)}")
        fail = True
    def settled(expr, check):
        # A scrape that timed out on a loaded machine marks its series stale until
        # the next one: ask again, for up to 20 s, before calling an answer wrong.
        until = time.monotonic() + 20
        while True:
            rows, error = result(expr)
            if (error is None and (check is None or check(rows))) or time.monotonic() > until:
                return rows, error
            time.sleep(0.25)

    for expr in exprs:
        rows, error = settled(expr, expected.get(expr))
        if error is not None:
            say(f"FAIL: {expr}: {error}")
            fail = True
        elif expr in expected and not expected[expr](rows):
            say(f"FAIL: {expr}: answered {json.dumps(rows)[:1500]}")
            fail = True
        else:
            say(f"ok ({len(rows)} series): {expr}")

    # The join on UUID alone: fine on the non-MIG host, refused on the MIG host.
    rows, error = settled('DCGM_FI_PROF_GR_ENGINE_ACTIVE{Hostname="dgx-h100"} * on(UUID) '
                         "group_left(driver_version) hwaccel_device_info{job=\"dgx-h100\"}",
                          lambda rows: len(rows) == 8)
    if error or len(rows) != 8:
        say(f"FAIL: on(UUID) on the non-MIG host: {error or len(rows)}")
        fail = True
    rows, error = result("DCGM_FI_PROF_GR_ENGINE_ACTIVE * on(UUID) group_left(driver_version) "
                         "hwaccel_device_info")
    if not error or "many" not in str(error):
        say(f"FAIL: on(UUID) on the MIG host should be many-to-many, got {error or rows}")
        fail = True
finally:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    files.shutdown()
    shutil.rmtree(tmp, ignore_errors=True)

if not fail:
    say("every documented query answered as expected, on a MIG and a non-MIG host")
sys.exit(1 if fail else 0)
