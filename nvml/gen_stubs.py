#!/usr/bin/env python3
"""Regenerates nvml_stubs.inc: every name in nvml_symbols.txt that no nvml_*api.cpp
defines answers NVML_ERROR_NOT_SUPPORTED."""
import pathlib
import re

here = pathlib.Path(__file__).resolve().parent
names = [l.strip() for l in (here / "nvml_symbols.txt").read_text().splitlines()
         if l.strip() and not l.startswith("#")]
defined = set()
for source in sorted(p.name for p in here.glob("nvml_*api.cpp")):
    text = (here / source).read_text()
    defined |= set(re.findall(r"NVML_API [^(]*?\b(nvml\w+)\(", text))
    defined |= set(re.findall(r"^NVML_NO_UNIT\((nvml\w+)", text, re.M))
stubs = [n for n in names if n not in defined]
(here / "nvml_stubs.inc").write_text(
    "// Generated from nvml_symbols.txt less the names nvml/nvml_*api.cpp define\n"
    "// (regenerate: nvml/gen_stubs.py).\n" + "".join(f"NVML_STUB({n})\n" for n in stubs))
