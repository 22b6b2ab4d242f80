#!/bin/sh
# libhwaccel.so exports the public API and nothing of hwaccel's internals: every
# defined dynamic symbol in namespace hwaccel is in hwaccel::api, and every C
# symbol of ours starts with hwaccel_. Usage: symbols_test.sh LIBHWACCEL_SO
set -eu
lib=$1
syms=$(nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//')
echo "$syms" | grep -q '^hwaccel_detect$' || { echo "hwaccel_detect is not exported" >&2; exit 1; }
leaks=$(echo "$syms" | c++filt | grep -E '(^|[^:])hwaccel::' | grep -v 'hwaccel::api::' || true)
if [ -n "$leaks" ]; then
  echo "internal symbols leak from $lib:" >&2
  echo "$leaks" | head -20 >&2
  exit 1
fi
count=$(echo "$syms" | grep -c '^hwaccel_' || true)
echo "symbols_test: $count C symbols, internals hidden"
