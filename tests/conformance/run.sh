#!/bin/sh
# ctest's conformance.matrix: every fixture host plus synthesised presets through
# conformance.py (one `hwsim run` per host). Usage: run.sh HWSIM SOURCE_DIR
set -eu
hwsim=$1
src=$2
tmp=$(mktemp -d)
# The hosts' trees go to a tree cache of this run's own, in memory where there is
# /dev/shm (docs/hwsim.md "The tree cache"), removed at the end.
cache=$(mktemp -d -p "$([ -d /dev/shm ] && echo /dev/shm || echo "$tmp")" hwsim-conformance-XXXXXX)
export HWSIM_TREE_CACHE="$cache"
trap 'rm -rf "$tmp" "$cache"' EXIT
for preset in dgx-h100 mi300x-8 trn1-32xlarge gh200; do
  "$hwsim" synth --preset "$preset" -o "$tmp/synth-$preset.yaml"
done
status=0
python3 "$src/tests/conformance/conformance.py" "$hwsim" "$src"/fixtures/hosts/*.yaml "$tmp"/synth-*.yaml || status=$?
exit "$status"
