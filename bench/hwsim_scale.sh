#!/bin/sh
# hwsim at scale (a benchmark, not a test): `hwsim check` over 1,000 synthesised
# hosts, `hwsim fleet --count 100000`, and that fleet in 4 shards and their merge
# (checked equal to the single run), each timed. The figures
# of a run go into docs/performance.md ("hwsim at scale").
#
#   bench/hwsim_scale.sh [BUILD_DIR] [HOSTS] [FLEET_COUNT]
set -eu
build=${1:-build}
hosts=${2:-1000}
count=${3:-100000}
hwsim="$build/hwsim"
[ -x "$hwsim" ] || { echo "no $hwsim: build it first (cmake --build $build --target hwsim)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/hwsim-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT

# 1,000 hosts: the presets in turn (13 machines from a cpu-only VM to 8-GPU boxes),
# each copy under a label of its own.
presets=$("$hwsim" synth --list-presets)
n=0
while [ "$n" -lt "$hosts" ]; do
  for p in $presets; do
    [ "$n" -lt "$hosts" ] || break
    "$hwsim" synth --preset "$p" --force -o "$work/spec.yaml.tmp" >/dev/null
    sed "s/^  label: .*/  label: $p-$n/" "$work/spec.yaml.tmp" > "$work/host-$(printf %04d "$n").yaml"
    n=$((n + 1))
  done
done
rm -f "$work/spec.yaml.tmp"
du -sh "$work" | sed 's/^/corpus: /'
echo "load: $(cat /proc/loadavg) on $(nproc) CPUs"
"$hwsim" check --update --progress never "$work" | tail -1   # create the goldens (untimed)

echo "== hwsim check over $hosts synthesised hosts"
/usr/bin/time -v "$hwsim" check --progress never "$work" 2> "$work/check.time" | tail -1
grep -E "Elapsed|User time|System time|Maximum resident" "$work/check.time"

echo "== hwsim fleet --preset dgx-h100 --count $count"
/usr/bin/time -v "$hwsim" fleet --preset dgx-h100 --count "$count" --seed 1 2> "$work/fleet.time" | head -3
grep -E "Elapsed|User time|System time|Maximum resident" "$work/fleet.time"

# The same fleet in shards, as a Slurm job array or a Kubernetes Indexed Job runs
# it (deploy/slurm, deploy/kubernetes): each shard timed alone (one node's share),
# then the merge; the merged report must be the single run's, byte for byte.
shards=4
echo "== hwsim fleet --shard K/$shards, then hwsim fleet merge"
"$hwsim" fleet --preset dgx-h100 --count "$count" --seed 1 > "$work/single.txt"
k=0
while [ "$k" -lt "$shards" ]; do
  /usr/bin/time -f "shard $k/$shards: %e s elapsed, %U s user, %M KiB max RSS" \
    "$hwsim" fleet --preset dgx-h100 --count "$count" --seed 1 --shard "$k/$shards" \
    -o "$work/part-$k.json"
  k=$((k + 1))
done
/usr/bin/time -f "merge of $shards parts: %e s elapsed, %U s user, %M KiB max RSS" \
  "$hwsim" fleet merge "$work"/part-*.json > "$work/merged.txt"
if cmp -s "$work/single.txt" "$work/merged.txt"; then
  echo "merged report: the single run's bytes"
else
  echo "merged report DIFFERS from the single run" >&2
  exit 1
fi
