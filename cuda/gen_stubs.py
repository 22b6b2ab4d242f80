#!/usr/bin/env python3
"""Regenerates cuda_stubs.inc: every name in cuda_symbols.txt that the library's
sources do not define answers CUDA_ERROR_NOT_SUPPORTED."""
import pathlib
import re

here = pathlib.Path(__file__).resolve().parent
names = [l.strip() for l in (here / "cuda_symbols.txt").read_text().splitlines()
         if l.strip() and not l.startswith("#")]
defined = set()
for source in sorted(here.glob("cuda_*.cpp")):
    defined |= set(re.findall(r"CUDA_API CUresult (cu\w+)\(", source.read_text()))
stubs = [n for n in names if n not in defined]
(here / "cuda_stubs.inc").write_text(
    "// Generated from cuda_symbols.txt less the names cuda_*.cpp define"
    " (regenerate: cuda/gen_stubs.py).\n" + "".join(f"CUDA_STUB({n})\n" for n in stubs))
print(f"{len(names)} exports: {len(names) - len(stubs)} answered, {len(stubs)} stubs")
