#!/usr/bin/env python3
"""Regenerates nvml_stubs.inc: every name in nvml_symbols.txt that nvml_api.cpp,
nvml_mig_api.cpp, nvml_monitor_api.cpp and nvml_process_api.cpp do not define
answers NVML_ERROR_NOT_SUPPORTED."""
import pathlib
import re

here = pathlib.Path(__file__).resolve().parent
names = [l.strip() for l in (here / "nvml_symbols.txt").read_text().splitlines()
         if l.strip() and not l.startswith("#")]
defined = set()
for source in ("nvml_api.cpp", "nvml_mig_api.cpp", "nvml_monitor_api.cpp",
               "nvml_process_api.cpp"):
    text = (here / source).read_text()
    defined |= set(re.findall(r"NVML_API [^(]*?\b(nvml\w+)\(", text))
    defined |= set(re.findall(r"^NVML_NO_UNIT\((nvml\w+)", text, re.M))
stubs = [n for n in names if n not in defined]
(here / "nvml_stubs.inc").write_text(
    "// Generated from nvml_symbols.txt less the names nvml_api.cpp,\n"
    "// nvml_mig_api.cpp, nvml_monitor_api.cpp and nvml_process_api.cpp define"
    " (regenerate: nvml/gen_stubs.py).\n" + "".join(f"NVML_STUB({n})\n" for n in stubs))
