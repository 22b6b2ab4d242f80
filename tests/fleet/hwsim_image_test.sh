#!/bin/sh
# deploy/container/Containerfile.hwsim built with buildah (vfs storage in a temporary
# folder, nothing pulled: FROM scratch), the image the fleet Jobs of
# deploy/kubernetes/fleet run. Checks:
#   - the image holds /usr/local/bin/hwsim and nothing else, its entrypoint is hwsim
#     and its user not root (the Jobs say runAsNonRoot: true);
#   - both Jobs name the tag the Containerfile says to build, and run
#     /usr/local/bin/hwsim;
#   - run as that user in the image's root (buildah run --isolation chroot, else
#     chroot --userspec: root only), a shard's part written to a mounted folder is
#     byte for byte the part this machine's hwsim writes for the same shard, and the
#     image's `hwsim fleet merge` of the parts prints the single run's report.
# Usage: hwsim_image_test.sh HWSIM SOURCE_DIR. Exit 77 without buildah unless CI=true.
set -u
hwsim=$1 src=$2
say() { echo "hwsim_image: $*"; }
. "$src/tests/fleet/buildah_store.sh"
fail=0
mkdir "$tmp/ctx"
cp "$src/deploy/container/Containerfile.hwsim" "$hwsim" "$tmp/ctx/" || exit 1
tag=$(sed -n 's/.*buildah bud -t \([^ ]*\) -f Containerfile.hwsim.*/\1/p' "$tmp/ctx/Containerfile.hwsim")
[ -n "$tag" ] || { say "FAIL: the Containerfile names no tag to build"; exit 1; }
b bud -q -t "$tag" -f "$tmp/ctx/Containerfile.hwsim" "$tmp/ctx" >/dev/null ||
  { say "FAIL: buildah bud"; exit 1; }
for job in shards-job.yaml merge-job.yaml; do
  grep -qF "image: $tag" "$src/deploy/kubernetes/fleet/$job" ||
    { say "FAIL: $job does not run $tag"; fail=1; }
  grep -qF 'command: ["/usr/local/bin/hwsim"]' "$src/deploy/kubernetes/fleet/$job" ||
    { say "FAIL: $job does not run /usr/local/bin/hwsim"; fail=1; }
done
ctr=$(b from "$tag") || exit 1
mnt=$(b mount "$ctr") || exit 1
files=$(cd "$mnt" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ')
[ "$files" = "usr/local/bin/hwsim " ] || { say "FAIL: the image holds: $files"; fail=1; }
cfg=$(b inspect --format '{{.OCIv1.Config.Entrypoint}} user={{.OCIv1.Config.User}}' "$tag")
case $cfg in
  *"/usr/local/bin/hwsim"*"user=65534:65534"*) ;;
  *) say "FAIL: image config: $cfg"; fail=1 ;;
esac
if [ "$(id -u)" != 0 ]; then
  say "not root: the run in the image is skipped"
  [ $fail -eq 0 ] && say "built $tag: $files"
  exit $fail
fi
# The Job's volume: a folder the image's user may write, mounted at /parts.
mkdir -p "$mnt/parts" "$tmp/here" && chmod 0777 "$mnt/parts"
fleet="fleet --preset dgx-h100 --count 40 --seed 3 --jobs 2"
runner=chroot
if b run --isolation chroot --user 65534:65534 "$ctr" -- /usr/local/bin/hwsim --version \
  >/dev/null 2>&1; then runner=buildah; fi
in_image() {
  if [ "$runner" = buildah ]; then
    b run --isolation chroot --user 65534:65534 "$ctr" -- /usr/local/bin/hwsim "$@"
  else
    env -i chroot --userspec=65534:65534 "$mnt" /usr/local/bin/hwsim "$@"
  fi
}
for k in 0 1 2; do
  # shellcheck disable=SC2086
  in_image $fleet --shard "$k/3" -o "/parts/part-$k.json" || { say "FAIL: shard $k in the image"; fail=1; }
  # shellcheck disable=SC2086
  "$hwsim" $fleet --shard "$k/3" -o "$tmp/here/part-$k.json" || { say "FAIL: shard $k here"; fail=1; }
  cmp -s "$mnt/parts/part-$k.json" "$tmp/here/part-$k.json" ||
    { say "FAIL: the image's part $k differs from this machine's"; fail=1; }
done
# shellcheck disable=SC2086
want=$("$hwsim" $fleet)
got=$(in_image fleet merge /parts) || { say "FAIL: merge in the image"; fail=1; }
[ "$got" = "$want" ] || { say "FAIL: the image's merge is not the single run's report"; fail=1; }
[ $fail -eq 0 ] && say "built $tag ($files); run by $runner as 65534: 3 parts equal this machine's, the merge equals the single run"
exit $fail
