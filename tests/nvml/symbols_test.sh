#!/bin/sh
# A simulated vendor library (libnvidia-ml.so.1, libcuda.so.1) exports exactly the
# functions of its list (nvml/nvml_symbols.txt, cuda/cuda_symbols.txt: nothing of
# hwaccel leaks out), has its SONAME, and needs no library `hwsim run` does not
# leave in place. symbols_test.sh LIB SYMBOLS_TXT [SONAME, default libnvidia-ml.so.1]
set -eu
lib=$1 list=$2 soname=${3:-libnvidia-ml.so.1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$list" | sort >"$tmp/want"
nm -D --defined-only "$lib" | awk '{print $3}' | sort >"$tmp/got"
if ! diff -u "$tmp/want" "$tmp/got"; then
  echo "FAIL: exported symbols differ from $list (- missing, + extra)"
  exit 1
fi
readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' >"$tmp/needed"
if grep -Ev '^(libc\.so\.6|libm\.so\.6|libgcc_s\.so\.1|libstdc\+\+\.so\.6|ld-linux[-a-z0-9_]*\.so\.[0-9]|libyaml-cpp\.so\.[0-9.]+)$' "$tmp/needed"; then
  echo "FAIL: needs a library beyond libc, libstdc++ and yaml-cpp"
  exit 1
fi
readelf -d "$lib" | grep -F "(SONAME)" | grep -qF "[$soname]" || { echo "FAIL: soname is not $soname"; exit 1; }
echo "ok: $(wc -l <"$tmp/got") functions exported by $soname; needs $(tr '\n' ' ' <"$tmp/needed")"
