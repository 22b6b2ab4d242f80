#!/bin/sh
# `pip wheel ./python` offline with Debian's setuptools and pybind11, reusing
# BUILD's libhwaccel.a (a copy of python/, so the source tree stays clean);
# the wheel installs (--target) and imports. Usage: wheel_test.sh PYTHON BUILD SOURCE
set -eu
python=$1
build=$2
src=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/hwaccel-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/python"
cp -r "$src/python/setup.py" "$src/python/hwaccel" "$src/python/src" "$work/python/"
# -O0 -g0: this checks that the wheel builds and works, not its speed (a third of the time).
CFLAGS="-O0 -g0" HWACCEL_SOURCE_DIR=$src HWACCEL_BUILD_DIR=$build "$python" -m pip wheel --no-deps --no-index \
  --no-build-isolation -w "$work/wheel" "$work/python" >"$work/wheel.log" 2>&1 ||
  { cat "$work/wheel.log" >&2; exit 1; }
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
