#!/bin/sh
# Writes DIR/rootfs: the GNU C runtime of this (the build) machine and nothing else,
# as a distroless "cc" base holds it: the dynamic loader, libc and the libraries a
# glibc program such as nvidia-smi links by name (libm, libdl, libpthread, librt),
# libgcc_s and libstdc++ (hwaccel-nvml is C++). No shell, no package manager.
# Local files only (no registry, no network), so the image builds offline; the NVIDIA
# container toolkit adds nvidia-smi and libnvidia-ml.so.1 at run time, and they need
# exactly this. Usage: glibc-rootfs.sh DIR [--list] (--list: print the image paths).
set -eu
dir=$1
list=${2:-}
# The loader hwaccel-nvml's kind of program asks for, from the C compiler's view of
# this machine; the libraries from the loader's cache, by SONAME.
loader=$(ldd /bin/true | awk '/ld-linux|ld64|ld-musl/ { print ($3 ~ /^\//) ? $3 : $1 }' | head -1)
[ -n "$loader" ] && [ -e "$loader" ] || { echo "glibc-rootfs: no dynamic loader found" >&2; exit 1; }
paths=$loader
for soname in libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 libgcc_s.so.1 libstdc++.so.6; do
  p=$(ldconfig -p | awk -v s="$soname" '$1 == s && $NF ~ /^\// { print $NF; exit }')
  [ -n "$p" ] || { echo "glibc-rootfs: $soname not in the loader's cache" >&2; exit 1; }
  paths="$paths $p"
done
if [ "$list" = --list ]; then
  for p in $paths; do echo "${p#/}"; done
  exit 0
fi
mkdir -p "$dir/rootfs"
for p in $paths; do
  mkdir -p "$dir/rootfs$(dirname "$p")"
  cp -L "$p" "$dir/rootfs$p"  # the file itself, under the name programs ask for
done
