#!/bin/sh
# A user's lint gate: `promtool check metrics` on `hwaccel export prometheus
# --snake-case` exits 0 and prints nothing, for every fixture host. Without the
# flag its one remark is the lint DCGM's own output draws (camelCase modelName,
# exit 3 since promtool 2.4x treats lint problems as failures): that is checked
# too, so that docs/exports.md's account of both stays true.
# Usage: promtool_gate_test.sh HWACCEL SOURCE_DIR. Exit 77 without promtool unless CI=true.
set -u
hwaccel=$1 src=$2
if ! command -v promtool >/dev/null 2>&1; then
  [ "${CI:-}" = true ] && { echo "promtool_gate: promtool missing (ci/setup fleet installs it)"; exit 1; }
  echo "promtool_gate: promtool missing: skipped"; exit 77
fi
fail=0 count=0
dcgm_lint="hwaccel_device_info label names should be written in 'snake_case' not 'camelCase'"
for f in "$src"/fixtures/hosts/*.yaml; do
  n=$(basename "$f" .yaml)
  out=$("$hwaccel" export prometheus -q --snake-case --host "$f" | promtool check metrics 2>&1)
  rc=$?
  [ $rc -eq 0 ] && [ -z "$out" ] || { echo "promtool_gate: FAIL: $n --snake-case: exit $rc: $out"; fail=1; }
  count=$((count + 1))
done
# Without the flag, on a GPU host: the one lint, and promtool's exit for it.
out=$("$hwaccel" export prometheus -q --host "$src/fixtures/hosts/dgx-h100.yaml" | promtool check metrics 2>&1)
rc=$?
rest=$(echo "$out" | grep -vxF "$dcgm_lint")
[ $rc -ne 0 ] && [ -n "$out" ] && [ -z "$rest" ] ||
  { echo "promtool_gate: FAIL: without --snake-case: exit $rc: $out"; fail=1; }
[ $fail -eq 0 ] && echo "promtool_gate: $count hosts clean with --snake-case; without it exit $rc (modelName lint only)"
exit $fail
