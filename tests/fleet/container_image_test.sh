#!/bin/sh
# deploy/container/Containerfile built with buildah (vfs storage in a temporary
# folder, nothing pulled: the image is FROM scratch): the image holds exactly
# the files deploy/container/image-files.txt lists, its hwaccel runs from the
# image's root (static: no libc there) and its entrypoint is hwaccel.
# Usage: container_image_test.sh HWACCEL SOURCE_DIR. Exit 77 without buildah
# unless CI=true.
set -u
hwaccel=$1 src=$2
if ! command -v buildah >/dev/null 2>&1; then
  [ "${CI:-}" = true ] && { echo "container_image: buildah missing (ci/setup fleet installs it)"; exit 1; }
  echo "container_image: buildah missing: skipped"; exit 77
fi
tmp=$(mktemp -d)
b() { buildah --storage-driver vfs --root "$tmp/store" --runroot "$tmp/run" "$@"; }
ctr=""
cleanup() { [ -n "$ctr" ] && b rm "$ctr" >/dev/null 2>&1; b rmi -a -f >/dev/null 2>&1; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM
mkdir "$tmp/ctx"
cp "$src/deploy/container/Containerfile" "$hwaccel" "$tmp/ctx/" || exit 1
b bud -q -t hwaccel-test -f "$tmp/ctx/Containerfile" "$tmp/ctx" >/dev/null || { echo "container_image: FAIL: buildah bud"; exit 1; }
ctr=$(b from hwaccel-test) || exit 1
mnt=$(b mount "$ctr") || exit 1
fail=0
(cd "$mnt" && find . -type f | sed 's|^\./||' | sort) > "$tmp/files"
if ! sort "$src/deploy/container/image-files.txt" | cmp -s - "$tmp/files"; then
  echo "container_image: FAIL: the image holds:"; cat "$tmp/files"; fail=1
fi
"$mnt/usr/local/bin/hwaccel" export nfd --host "$src/fixtures/hosts/dgx-h100.yaml" -q |
  grep -q '^hwaccel.io/cuda.count=8$' || { echo "container_image: FAIL: the image's hwaccel"; fail=1; }
b inspect --format '{{.OCIv1.Config.Entrypoint}}' hwaccel-test | grep -q /usr/local/bin/hwaccel ||
  { echo "container_image: FAIL: entrypoint"; fail=1; }
[ $fail -eq 0 ] && echo "container_image: built; files: $(tr '\n' ' ' < "$tmp/files")"
exit $fail
