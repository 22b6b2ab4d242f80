"""`python3 -m pip install ./python` (or `pip wheel ./python`): builds the hwaccel
package offline with Debian's setuptools and pybind11 (python3-pybind11).

The C++ library comes from CMake: the archive libhwaccel.a of HWACCEL_BUILD_DIR
(an absolute path), else of ../build when it is configured (ci/build), else of a fresh Release
build under setuptools' build folder. Then pybind11's helpers compile the
module (python/src/) against it. No pyproject.toml on purpose: pip would then
isolate the build and try to download setuptools.
"""

import os
import pathlib
import re
import subprocess

from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

HERE = pathlib.Path(__file__).resolve().parent
# The repository: python/'s parent, unless HWACCEL_SOURCE_DIR names it (a copy of python/ elsewhere).
ROOT = pathlib.Path(os.environ.get("HWACCEL_SOURCE_DIR", HERE.parent)).resolve()
VERSION = re.search(r"project\(hwaccel VERSION ([0-9.]+)",
                    (ROOT / "CMakeLists.txt").read_text()).group(1)


class build_with_library(build_ext):
    """build_ext that first builds libhwaccel.a with CMake and links the module to it."""

    def run(self):
        library = self._build_library()
        for ext in self.extensions:
            ext.extra_objects = [str(library)]
        super().run()

    def _build_library(self):
        build = os.environ.get("HWACCEL_BUILD_DIR")
        if build:
            build = pathlib.Path(build).resolve()
        elif (ROOT / "build" / "CMakeCache.txt").exists():
            build = ROOT / "build"
        else:
            build = pathlib.Path(self.build_temp).resolve() / "hwaccel-cmake"
            subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                            "-DHWACCEL_BUILD_TESTS=OFF", "-DHWACCEL_PYTHON=OFF",
                            "-DHWACCEL_SHARED=OFF", "-DHWACCEL_STATIC_TOOLS=OFF"], check=True)
        jobs = str(os.cpu_count() or 2)
        subprocess.run(["cmake", "--build", str(build), "--target", "hwaccel_core", "-j", jobs],
                       check=True)
        return build / "libhwaccel.a"


module = Pybind11Extension(
    "hwaccel._hwaccel",
    [str(HERE / "src" / "module.cpp"), str(HERE / "src" / "session.cpp"),
     str(ROOT / "cli" / "common" / "output_file.cpp")],
    include_dirs=[str(ROOT), str(ROOT / "include")],
    define_macros=[("HWACCEL_VERSION", f'"{VERSION}"')],
    libraries=["yaml-cpp"],
    extra_link_args=["-pthread", "-s"],  # stripped: 3 MB instead of 60
    cxx_std=20,
)

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
)
