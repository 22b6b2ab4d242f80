#!/bin/sh
# deploy/slurm/prolog-cuda-visible-devices.sh on fixture hosts: it names the
# device hwaccel selects the way CUDA can open it (a MIG device by its MIG UUID,
# a whole GPU by its CUDA ordinal), and says nothing where there is no GPU or
# the job already has CUDA_VISIBLE_DEVICES.
# Usage: slurm_prolog_test.sh HWACCEL SOURCE_DIR
set -u
hwaccel=$1 src=$2
prolog=$src/deploy/slurm/prolog-cuda-visible-devices.sh
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# hwaccel on a fixture: the prolog calls "$HWACCEL select ...".
wrapper() {
  printf '#!/bin/sh\nexec "%s" "$@" --host "%s/fixtures/hosts/%s.yaml"\n' "$hwaccel" "$src" "$1" \
    >"$tmp/$1"
  chmod +x "$tmp/$1"
}
expect() {  # HOST EXPECTED-OUTPUT [VAR=VALUE]
  wrapper "$1"
  got=$(env -u CUDA_VISIBLE_DEVICES ${3:-} HWACCEL="$tmp/$1" sh "$prolog"; echo "exit $?")
  want=$(printf '%s' "$2"; [ -n "$2" ] && echo; echo "exit 0")
  if [ "$got" != "$want" ]; then
    echo "slurm_prolog: FAIL on $1 ${3:-}: got [$got], want [$want]"
    fail=1
  fi
}
expect h100-mig "export CUDA_VISIBLE_DEVICES=MIG-00000000-0000-0000-0000-000000000000"
expect dgx-h100 "export CUDA_VISIBLE_DEVICES=0"
expect dgx-h100 "" CUDA_VISIBLE_DEVICES=3
expect nvidia-no-driver ""
expect cpu-only ""
[ "$fail" = 0 ] && echo "slurm_prolog: the prolog names what CUDA opens on every host"
exit "$fail"
