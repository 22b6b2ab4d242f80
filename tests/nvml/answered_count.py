#!/usr/bin/env python3
"""Counts the NVML functions the simulated libnvidia-ml answers from the snapshot:
the exported names (nvml/nvml_symbols.txt) that nvml/nvml_*_api.cpp define, the
rest being NOT_SUPPORTED stubs (nvml/nvml_stubs.inc). Fails where nvml_stubs.inc
is out of date (a stub and a definition of one name would not link; a name in
neither is not exported) or the count drops below the floor docs/nvml.md states.

answered_count.py SOURCE_DIR FLOOR
"""
import pathlib
import re
import sys

root, floor = pathlib.Path(sys.argv[1]), int(sys.argv[2])
nvml = root / "nvml"
names = [l.strip() for l in (nvml / "nvml_symbols.txt").read_text().splitlines()
         if l.strip() and not l.startswith("#")]
defined = set()
for source in sorted(nvml.glob("nvml_*api.cpp")):
    text = source.read_text()
    defined |= set(re.findall(r"NVML_API [^(]*?\b(nvml\w+)\(", text))
    defined |= set(re.findall(r"^NVML_NO_UNIT\((nvml\w+)", text, re.M))
stubs = set(re.findall(r"^NVML_STUB\((nvml\w+)\)", (nvml / "nvml_stubs.inc").read_text(), re.M))
answered = [n for n in names if n in defined]
problems = [n + ": both answered and a stub" for n in sorted(defined & stubs)]
problems += [n + ": neither answered nor a stub" for n in names if n not in defined | stubs]
problems += [n + ": answered but not in nvml_symbols.txt" for n in sorted(defined - set(names))]
for p in problems:
    print("FAIL:", p)
print("NVML functions answering from the snapshot: %d of %d (floor %d)"
      % (len(answered), len(names), floor))
if len(answered) < floor:
    print("FAIL: fewer than the floor")
sys.exit(1 if problems or len(answered) < floor else 0)
