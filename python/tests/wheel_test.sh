#!/bin/sh
# `pip wheel ./python` offline with Debian's setuptools and pybind11
# (--no-build-isolation), on BUILD's libhwaccel.a found with CMake's
# find_package(hwaccel) (HWACCEL_BUILD_DIR): it compiles the module only, writes
# nothing into the source tree (python/ and the rest are listed before and
# after), and the wheel installs (--target) and imports. (-v: pip shows
# setup.py's messages, which say where the library came from.)
# Usage: wheel_test.sh PYTHON BUILD SOURCE
set -eu
python=$1
build=$2
src=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/hwaccel-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Everything in the source tree but the build folders (where ctest itself writes).
tree() { (cd "$src" && find . -path './build*' -prune -o -path ./.git -prune -o -print | LC_ALL=C sort); }
tree >"$work/before"
# -O0: this checks that the wheel builds and works, not its speed (a third of the time).
CFLAGS="-O0" HWACCEL_PYTHON_CACHE="$work/cache" HWACCEL_BUILD_DIR=$build \
  "$python" -m pip wheel -v --no-deps --no-index --no-build-isolation -w "$work/wheel" "$src/python" \
  >"$work/wheel.log" 2>&1 || { cat "$work/wheel.log" >&2; exit 1; }
grep "hwaccel setup.py: linking against" "$work/wheel.log"
if grep -q "building libhwaccel.a" "$work/wheel.log"; then
  echo "wheel_test: FAIL: setup.py built the library instead of finding $build's" >&2; exit 1
fi
tree >"$work/after"
if ! cmp -s "$work/before" "$work/after"; then
  echo "wheel_test: FAIL: pip wheel wrote into the source tree:" >&2
  diff "$work/before" "$work/after" >&2
  exit 1
fi
ls "$work"/wheel/hwaccel-*.whl
"$python" -m pip install --no-deps --no-index --target "$work/site" "$work"/wheel/hwaccel-*.whl \
  >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; exit 1; }
cd "$src"
PYTHONPATH=$work/site "$python" -c '
import hwaccel
d = hwaccel.detect(host="fixtures/hosts/gx10.yaml")
assert d.to_json() == open("fixtures/hosts/gx10.expected/detect.json").read()
assert hwaccel.__file__.startswith("'"$work"'/site/"), hwaccel.__file__
print("wheel_test: the wheel imports and detects:", repr(d))'
