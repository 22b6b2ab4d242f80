#!/bin/sh
# ctest's conformance.matrix: every fixture host plus synthesised presets through
# conformance.py (one `hwsim run` per host). Usage: run.sh HWSIM SOURCE_DIR
set -eu
hwsim=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for preset in dgx-h100 mi300x-8 trn1-32xlarge gh200; do
  "$hwsim" synth --preset "$preset" -o "$tmp/synth-$preset.yaml"
done
exec python3 "$src/tests/conformance/conformance.py" "$hwsim" "$src"/fixtures/hosts/*.yaml "$tmp"/synth-*.yaml
