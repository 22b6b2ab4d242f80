#!/usr/bin/env python3
"""Regenerates nvml_stubs.inc: every name in nvml_symbols.txt that nvml_api.cpp
does not define answers NVML_ERROR_NOT_SUPPORTED."""
import pathlib
import re

here = pathlib.Path(__file__).resolve().parent
names = [l.strip() for l in (here / "nvml_symbols.txt").read_text().splitlines()
         if l.strip() and not l.startswith("#")]
defined = set(re.findall(r"NVML_API [^(]*?\b(nvml\w+)\(", (here / "nvml_api.cpp").read_text()))
stubs = [n for n in names if n not in defined]
(here / "nvml_stubs.inc").write_text(
    "// Generated from nvml_symbols.txt less the names nvml_api.cpp defines\n"
    "// (regenerate: nvml/gen_stubs.py).\n" + "".join(f"NVML_STUB({n})\n" for n in stubs))
