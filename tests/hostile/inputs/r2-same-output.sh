#!/bin/sh
# Issue 31: python3, git and openssl do the same with a hostile snapshot's env as
# with none. `run SNAP CLEAN`: each probe under `hwsim run` of both snapshots;
# `sourced ENVSH CLEAN_ENVSH`: each probe in a shell that sourced the env.sh of
# each materialized tree. CLEAN is the same host with only PATH and the device view
# in its env. Fails on the first difference, or when a canary was hit. Run from a
# git repository (the fsmonitor and alias probes need one). The run's tree (its
# path names the snapshot's hash: VK_DRIVER_FILES points into it) reads as TREE.
mode=$1 a=$2 b=$3
fail=0
probe() {
  if [ "$mode" = run ]; then
    "$HWSIM" run "$1" -- /bin/sh -c "$2" 2>&1 | grep -v '^hwsim run: '
  else
    /bin/sh -c ". '$1' && $2" 2>&1
  fi
}
for c in \
  "python3 -c 'import site, sys; print(site.ENABLE_USER_SITE, site.USER_SITE, site.getuserbase()); print(sys.path)'" \
  "python3 -c 'print(42)'" \
  "git config --list --show-origin" \
  "git log --oneline" \
  "git status --short; git st; git lg; echo \$?" \
  "openssl list -providers" \
  "openssl version -d -e -m" \
  "env | grep -v -e '^HWSIM_ROOT=' -e '^PATH=' | sed \"s|\${HWSIM_ROOT:-/no-tree}|TREE|g\" | sort"; do
  x=$(probe "$a" "$c")
  y=$(probe "$b" "$c")
  if [ "$x" != "$y" ]; then
    printf 'differs: %s\n--- with the snapshot env:\n%s\n--- without:\n%s\n' "$c" "$x" "$y"
    fail=1
  fi
done
if ls "$CANARY" | grep -q -e '^hit-' -e '^library-loaded$'; then
  echo "a canary was hit:"
  ls "$CANARY"
  fail=1
fi
exit $fail
