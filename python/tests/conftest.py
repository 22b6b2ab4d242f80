"""Shared by the package's tests: where the CLI and the fixtures are.

ctest sets HWACCEL_BIN_DIR (the build with `hwaccel`) and HWACCEL_SOURCE_DIR;
PYTHONPATH points at the built package (build/python).
"""

import os
import pathlib
import subprocess

import pytest

SOURCE = pathlib.Path(os.environ.get("HWACCEL_SOURCE_DIR",
                                     pathlib.Path(__file__).resolve().parents[2]))
FIXTURES = SOURCE / "fixtures" / "hosts"


def fixture_hosts():
    """Every fixture host that has goldens."""
    return sorted(p for p in FIXTURES.glob("*.yaml") if p.with_suffix(".expected").is_dir())


@pytest.fixture(scope="session")
def cli():
    """Runs `hwaccel ARGS...`: (exit code, stdout)."""
    binary = pathlib.Path(os.environ.get("HWACCEL_BIN_DIR", SOURCE / "build")) / "hwaccel"
    if not binary.exists():
        pytest.skip(f"{binary} is not built")

    def run(*args):
        p = subprocess.run([str(binary), *map(str, args)], capture_output=True, text=True,
                           env={**os.environ, "NO_COLOR": "1"}, timeout=60)
        return p.returncode, p.stdout
    return run
