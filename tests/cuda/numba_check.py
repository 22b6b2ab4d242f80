#!/usr/bin/env python3
"""What Debian's Numba sees through libcuda.so.1: numba.cuda.detect()'s report and,
for each of numba.cuda.gpus, its name, compute capability, PCI address, UUID and a
context's get_memory_info(). One JSON object on stdout (tests/cuda/compare.py)."""
import contextlib
import io
import json

out = {}
try:
    from numba import cuda
    report = io.StringIO()
    with contextlib.redirect_stdout(report):
        out["detect"] = bool(cuda.detect())
    out["report"] = report.getvalue()
    # cuda.is_available() also wants NVVM (libnvvm, for compiling kernels), which
    # Debian does not ship: the driver's own verdict is what detection rests on.
    from numba.cuda.cudadrv import driver, nvvm
    out["available"] = driver.driver.is_available
    out["nvvm"] = nvvm.is_available()
    gpus = []
    if out["available"]:
        for gpu in cuda.gpus:
            with gpu:
                dev = cuda.get_current_device()
                free, total = cuda.current_context().get_memory_info()
                gpus.append({"id": dev.id, "name": dev.name.decode() if isinstance(dev.name, bytes)
                             else dev.name, "cc": list(dev.compute_capability),
                             "pci": [dev.PCI_DOMAIN_ID, dev.PCI_BUS_ID, dev.PCI_DEVICE_ID],
                             "uuid": dev.uuid, "free": free, "total": total})
    out["gpus"] = gpus
except Exception as e:  # what Numba said, for the comparison to show
    out["error"] = "%s: %s" % (type(e).__name__, e)
print(json.dumps(out))
