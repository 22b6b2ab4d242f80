"""`pip install ./python` (or `pip wheel ./python`): builds the extension module
only, against a libhwaccel.a that CMake's find_package(hwaccel) finds.

Where the library comes from, first found:
  1. HWACCEL_BUILD_DIR (a configured and built build folder) or hwaccel_DIR;
  2. the repository's build/ (ci/build), when its libhwaccel.a is newer than
     every file under src/ and include/ (a stale one is passed over: it would
     not match the headers the module is compiled with);
  3. an install prefix (`cmake --install build`; CMAKE_PREFIX_PATH, /usr/local, /usr)
     holding this version;
  4. else the library is built once (Release, hwaccel_core only) in the cache
     folder below and reused by later installs.
Nothing is written into the repository: setuptools' build folder and egg-info go
to ${XDG_CACHE_HOME:-~/.cache}/hwaccel/python-VERSION (HWACCEL_PYTHON_CACHE moves it).

pyproject.toml names setuptools and pybind11 for pip's isolated build (a virtual
environment, PyPI). Offline, with Debian's python3-setuptools, python3-wheel and
python3-pybind11: `pip install --no-build-isolation ./python`.
"""

import os
import pathlib
import re
import subprocess
import sys

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

HERE = pathlib.Path(__file__).resolve().parent
# The repository: python/'s parent, unless HWACCEL_SOURCE_DIR names it (a copy of python/ elsewhere).
ROOT = pathlib.Path(os.environ.get("HWACCEL_SOURCE_DIR", HERE.parent)).resolve()
VERSION = re.search(r"project\(hwaccel VERSION ([0-9.]+)",
                    (ROOT / "CMakeLists.txt").read_text()).group(1)
CACHE = pathlib.Path(os.environ.get("HWACCEL_PYTHON_CACHE") or pathlib.Path(
    os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache") / "hwaccel"
    / f"python-{VERSION}").resolve()

# The three sources compile in parallel (HWACCEL_PYTHON_JOBS, default: every CPU).
ParallelCompile("HWACCEL_PYTHON_JOBS", default=0).install()


def say(text):
    print(f"hwaccel setup.py: {text}", file=sys.stderr, flush=True)


def find_library(hints):
    """libhwaccel.a of find_package(hwaccel VERSION) with these hints, or None.

    A small CMake project in the cache folder asks find_package and writes the
    imported library's path."""
    probe = CACHE / "find"
    probe.mkdir(parents=True, exist_ok=True)
    (probe / "CMakeLists.txt").write_text(f"""cmake_minimum_required(VERSION 3.25)
project(find_hwaccel LANGUAGES CXX)
find_package(hwaccel {VERSION} EXACT CONFIG REQUIRED)
file(GENERATE OUTPUT found.txt CONTENT "$<TARGET_FILE:hwaccel::hwaccel_static>")
""")
    binary = probe / "build"
    subprocess.run(["rm", "-rf", str(binary)], check=True)
    r = subprocess.run(["cmake", "-S", str(probe), "-B", str(binary)] + hints,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        return None
    found = pathlib.Path((binary / "found.txt").read_text().strip())
    return found if found.is_file() else None


def newest_source():
    return max(p.stat().st_mtime for d in ("src", "include") for p in (ROOT / d).rglob("*")
               if p.is_file())


def library():
    """(libhwaccel.a, where it came from)."""
    explicit = os.environ.get("HWACCEL_BUILD_DIR") or os.environ.get("hwaccel_DIR")
    if explicit:
        found = find_library([f"-Dhwaccel_DIR={pathlib.Path(explicit).resolve()}"])
        if not found:
            sys.exit(f"hwaccel setup.py: no hwaccel {VERSION} package in {explicit} "
                     "(a build folder needs `cmake --build DIR --target hwaccel_core` first)")
        return found, explicit
    repo_build = ROOT / "build"
    if (repo_build / "hwaccelConfig.cmake").exists():
        found = find_library([f"-Dhwaccel_DIR={repo_build}"])
        if found and found.stat().st_mtime >= newest_source():
            return found, str(repo_build)
        say(f"{repo_build} has no up-to-date libhwaccel.a (cmake --build build --target "
            "hwaccel_core makes one): not used")
    found = find_library([])
    if found:
        return found, "the installed hwaccel package"
    # Built once here, then reused (the build is incremental).
    build = CACHE / "library"
    say(f"no built hwaccel {VERSION} found: building libhwaccel.a in {build} (once)")
    subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                    "-DHWACCEL_BUILD_TESTS=OFF", "-DHWACCEL_PYTHON=OFF", "-DHWACCEL_SHARED=OFF",
                    "-DHWACCEL_STATIC_TOOLS=OFF"], check=True)
    jobs = os.environ.get("HWACCEL_PYTHON_JOBS") or str(os.cpu_count() or 2)
    subprocess.run(["cmake", "--build", str(build), "--target", "hwaccel_core", "-j", jobs],
                   check=True)
    found = find_library([f"-Dhwaccel_DIR={build}"])
    if not found:
        sys.exit(f"hwaccel setup.py: built {build}, but find_package(hwaccel) does not find it")
    return found, str(build)


class build_with_library(build_ext):
    """build_ext that links the module to the libhwaccel.a find_package finds."""

    def run(self):
        lib, origin = library()
        say(f"linking against {lib} ({origin})")
        for ext in self.extensions:
            ext.extra_objects = [str(lib)]
        super().run()


module = Pybind11Extension(
    "hwaccel._hwaccel",
    [str(HERE / "src" / "module.cpp"), str(HERE / "src" / "session.cpp"),
     str(ROOT / "cli" / "common" / "output_file.cpp")],
    include_dirs=[str(ROOT), str(ROOT / "include")],
    define_macros=[("HWACCEL_VERSION", f'"{VERSION}"')],
    libraries=["yaml-cpp"],
    extra_compile_args=["-g0"],  # the module is stripped anyway: debug info only costs time
    extra_link_args=["-pthread", "-s"],  # stripped: 3 MB instead of 60
    cxx_std=20,
)

CACHE.mkdir(parents=True, exist_ok=True)
setup(
    name="hwaccel",
    version=VERSION,
    description="Which accelerators this machine has, which are usable right now and why not",
    long_description=(ROOT / "docs" / "python.md").read_text(),
    long_description_content_type="text/markdown",
    packages=["hwaccel"],
    package_data={"hwaccel": ["py.typed", "*.pyi"]},
    ext_modules=[module],
    cmdclass={"build_ext": build_with_library},
    python_requires=">=3.9",
    zip_safe=False,
    # Out of the source tree: setuptools' build folder and egg-info.
    options={"build": {"build_base": str(CACHE / "setuptools")},
             "egg_info": {"egg_base": str(CACHE)}},
)
