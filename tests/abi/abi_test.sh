#!/bin/sh
# The ABI policy of docs/library.md, checked: (1) every symbol libhwaccel 0.1.0
# exported is still exported, with its version node, while the soname is
# libhwaccel.so.0; (2) a program built against the 0.1.0 C header runs on this
# library; (3) the C++ header is the one its SOVERSION was recorded with.
# Usage: abi_test.sh LIBHWACCEL_SO OLD_CONSUMER SOURCE_DIR SOVERSION
set -eu
lib=$1
old=$2
src=$3
soversion=$4
here=$src/tests/abi

soname=$(readelf -d "$lib" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = "libhwaccel.so.$soversion" ] || { echo "soname $soname, expected libhwaccel.so.$soversion" >&2; exit 1; }
if [ "$soversion" = 0 ]; then
  exported=$(nm -D --defined-only "$lib" | awk '{print $3}')
  missing=$(grep -v '^#' "$here/libhwaccel-0.1.0.symbols" | while read -r sym; do
    echo "$exported" | grep -qxF "$sym" || echo "$sym"
  done)
  [ -z "$missing" ] || { echo "symbols of 0.1.0 gone from $soname (bump HWACCEL_SOVERSION):" $missing >&2; exit 1; }
fi

"$old" "$src/fixtures/hosts/dgx-h100.yaml"

recorded=$(grep -v '^#' "$here/cxx_abi.txt")
actual="$(sha256sum "$src/include/hwaccel/hwaccel.hpp" | cut -d' ' -f1) $soversion"
if [ "$recorded" != "$actual" ]; then
  echo "include/hwaccel/hwaccel.hpp changed since SOVERSION $soversion was recorded ($recorded)." >&2
  echo "Its structs cross the library by value: if the change is incompatible, bump" >&2
  echo "HWACCEL_SOVERSION in CMakeLists.txt; then put \"$actual\" (with the new" >&2
  echo "SOVERSION) in tests/abi/cxx_abi.txt." >&2
  exit 1
fi
echo "abi_test: $soname keeps the 0.1.0 C ABI; the C++ header matches SOVERSION $soversion"
