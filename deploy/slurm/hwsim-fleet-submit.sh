#!/bin/sh
# A simulated fleet too large for one machine, as a Slurm job array: N shard
# tasks (`hwsim fleet ... --shard K/N`, K = SLURM_ARRAY_TASK_ID, 0-based) each
# write OUT/parts/part-K.json, then one merge job, started only when every task
# succeeded (afterok), writes OUT/report.txt and OUT/report.json: the bytes a
# single `hwsim fleet ...` run prints. OUT must be on storage every node sees.
#   hwsim-fleet-submit.sh N OUT [sbatch options...] -- FLEET ARGS...
#   hwsim-fleet-submit.sh 64 /shared/fleet-1 --partition=cpu -- --preset dgx-h100 --count 10000000
# Prints the array's and the merge's job ids. HWSIM: the hwsim binary (default:
# hwsim on PATH); sbatch passes it to the jobs with the rest of the environment.
# Slurm's MaxArraySize (default 1001) bounds N.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 N OUT [sbatch options...] -- FLEET ARGS..." >&2; exit 2; }
n=$1 out=$2
shift 2
case $n in '' | *[!0-9]*) echo "$0: N must be a whole number, not '$n'" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "$0: N must be at least 1" >&2; exit 2; }
opts=""
while [ $# -gt 0 ] && [ "$1" != -- ]; do opts="$opts $1"; shift; done
[ "${1:-}" = -- ] || { echo "$0: put the fleet's arguments after --" >&2; exit 2; }
shift
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/parts"
# A part left from an earlier run of another fleet would be refused by the merge.
rm -f "$out"/parts/part-*.json
# shellcheck disable=SC2086  # opts: the caller's sbatch options, one word each
array=$(sbatch --parsable $opts --job-name=hwsim-fleet --array=0-$((n - 1)) \
  --output="$out/shard-%a.log" "$here/hwsim-fleet-shard.sbatch" "$out/parts" "$@")
array=${array%%;*}  # "ID;CLUSTER" on a federation
# shellcheck disable=SC2086
merge=$(sbatch --parsable $opts --job-name=hwsim-fleet-merge --dependency=afterok:"$array" \
  --output="$out/merge.log" "$here/hwsim-fleet-merge.sbatch" "$out")
echo "array $array merge ${merge%%;*}"
