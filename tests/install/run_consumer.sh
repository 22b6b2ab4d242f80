#!/bin/sh
# Installs the build into a temporary prefix, then builds and runs a consumer
# project against it three ways: CMake package (shared and static), pkg-config
# (shared, and --static), and the examples of docs/library.md. Also checks the
# man pages and completions were installed.
# Usage: run_consumer.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/hwaccel-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fixture=$src/fixtures/hosts/dgx-h100.yaml

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
for f in bin/hwaccel bin/hwsim include/hwaccel/hwaccel.h include/hwaccel/hwaccel.hpp \
         share/man/man1/hwaccel.1 share/man/man1/hwsim.1 \
         share/bash-completion/completions/hwaccel share/zsh/site-functions/_hwaccel; do
  [ -e "$prefix/$f" ] || { echo "not installed: $f" >&2; exit 1; }
done
libdir=$(dirname "$(find "$prefix" -name 'libhwaccel.so' | head -1)")

echo "== installed tree"
# Stripped by default (the build tree keeps the debug info); the whole tree
# is a few tens of MB (without stripping: over 700 MB).
for f in "$prefix/bin/hwaccel" "$prefix/bin/hwsim" "$libdir/libhwaccel.so" "$libdir/libhwaccel.a"; do
  if readelf -S "$f" 2>/dev/null | grep -q '\.debug_info'; then
    echo "installed with debug info: $f" >&2
    exit 1
  fi
done
size_kib=$(du -sk "$prefix" | cut -f1)
echo "installed tree: $((size_kib / 1024)) MiB ($size_kib KiB)"
[ "$size_kib" -lt 102400 ] || { echo "installed tree over 100 MiB" >&2; exit 1; }
[ -e "$libdir/libhwaccel.a" ] || { echo "no static libhwaccel.a in $libdir" >&2; exit 1; }
[ -e "$libdir/pkgconfig/hwaccel.pc" ] || { echo "no hwaccel.pc" >&2; exit 1; }
[ -e "$libdir/cmake/hwaccel/hwaccelConfig.cmake" ] || { echo "no CMake package" >&2; exit 1; }

echo "== CMake package"
cmake -S "$src/tests/install/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release -DHWACCEL_DOCS="$src/docs/library.md" >"$work/configure.log" ||
  { cat "$work/configure.log" >&2; exit 1; }
grep "examples" "$work/configure.log" || true
cmake --build "$work/cmake" -j2 >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
"$work/cmake/c_consumer" "$fixture"
"$work/cmake/c_consumer_static" "$fixture" >/dev/null
"$work/cmake/cpp_consumer" "$fixture"
"$work/cmake/cpp_consumer_static" "$fixture"
for example in "$work"/cmake/doc_example_*; do
  [ -x "$example" ] || continue
  echo "-- $(basename "$example")"
  "$example" "$fixture" >/dev/null
done

echo "== pkg-config"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
pkg-config --exists hwaccel
cc -o "$work/pc_c" "$src/tests/install/consumer/main.c" $(pkg-config --cflags --libs hwaccel) \
  -Wl,-rpath,"$libdir"
"$work/pc_c" "$fixture"
c++ -std=c++17 -o "$work/pc_cpp_static" "$src/tests/install/consumer/main.cpp" \
  $(pkg-config --cflags hwaccel) "$libdir/libhwaccel.a" $(pkg-config --static --libs-only-l --libs-only-other hwaccel | sed 's/-lhwaccel//')
"$work/pc_cpp_static" "$fixture"
# A C program and the static library, linked by the C compiler with what
# `pkg-config --static` says (Libs.private carries the C++ runtime).
cc -o "$work/pc_c_static" "$src/tests/install/consumer/main.c" $(pkg-config --cflags hwaccel) \
  "$libdir/libhwaccel.a" $(pkg-config --static --libs-only-l --libs-only-other hwaccel | sed 's/-lhwaccel//')
"$work/pc_c_static" "$fixture" >/dev/null
echo "static C program: ok"

echo "== Rust (bindgen)"
rustc=/usr/bin/rustc  # Debian's, not a rustup shim earlier on PATH
if command -v bindgen >/dev/null 2>&1 && [ -x "$rustc" ]; then
  bindgen "$prefix/include/hwaccel/hwaccel.h" --allowlist-function 'hwaccel_.*' \
    -o "$work/hwaccel.rs" -- -I"$prefix/include" 2>"$work/bindgen.log" ||
    { cat "$work/bindgen.log" >&2; exit 1; }
  HWACCEL_BINDINGS_DIR="$work" "$rustc" --edition 2021 -O -o "$work/rust_consumer" \
    "$src/tests/install/rust/main.rs" -L "$libdir" -l hwaccel -C link-arg=-Wl,-rpath,"$libdir" ||
    exit 1
  "$work/rust_consumer" "$fixture"
else
  echo "SKIPPED: the Rust consumer needs Debian's bindgen and rustc (apt-get install bindgen rustc)"
fi

echo "== hwsim's simulated libraries, found where it was installed"
# The prefix here is not the configure-time one: hwsim finds libnvidia-ml.so.1,
# libcuda.so.1 and the Vulkan driver from its own place (BINDIR/../LIBDIR/hwaccel).
wanted="libnvidia-ml.so.1 libcuda.so.1"
[ -e "$build/hwsim_vulkan_icd.json" ] && wanted="$wanted hwsim_vulkan_icd.json libhwsim_vulkan.so"
for f in $wanted; do
  [ -e "$libdir/hwaccel/$f" ] || { echo "not installed: $libdir/hwaccel/$f" >&2; exit 1; }
done
said=$(env -u HWSIM_NVML_LIBRARY -u HWSIM_CUDA_LIBRARY -u HWSIM_VULKAN_ICD \
  "$prefix/bin/hwsim" run "$fixture" -- true 2>&1 >/dev/null || true)
case "$said" in
  *"not covered: NVML"* | *"not covered: CUDA"* | *"not covered: Vulkan"*)
    echo "the installed hwsim does not find its libraries in $libdir/hwaccel:" >&2
    echo "$said" >&2
    exit 1 ;;
esac
echo "simulated libraries found: $wanted"

module=$(find "$prefix" -name '_hwaccel*.so' | head -1)
if [ -n "$module" ]; then
  echo "== Python package"
  PYTHONPATH=$(dirname "$(dirname "$module")") /usr/bin/python3 -c \
    'import sys, hwaccel; d = hwaccel.detect(host=sys.argv[1]); print(repr(d)); assert d.devices' \
    "$fixture"
fi
echo "install.consumer: ok"
