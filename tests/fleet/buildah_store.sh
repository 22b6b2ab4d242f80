# Sourced by the image tests (container_image_test.sh, hwsim_image_test.sh) after
# they define say(): exits 77 without buildah (1 where CI=true), else makes a
# throwaway buildah store under $tmp, b() to run buildah on it, and a trap that
# removes the container in $ctr, every image and $tmp however the test ends.
if ! command -v buildah >/dev/null 2>&1; then
  [ "${CI:-}" = true ] && { say "buildah missing (ci/setup fleet installs it)"; exit 1; }
  say "buildah missing: skipped"; exit 77
fi
tmp=$(mktemp -d)
b() { buildah --storage-driver vfs --root "$tmp/store" --runroot "$tmp/run" "$@"; }
ctr=""
cleanup() { [ -n "$ctr" ] && b rm "$ctr" >/dev/null 2>&1; b rmi -a -f >/dev/null 2>&1; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM
