#!/bin/sh
# deploy/container/Containerfile built with buildah (vfs storage in a temporary
# folder, nothing pulled: FROM scratch over the glibc base that
# deploy/container/glibc-rootfs.sh copies from this machine). Checks:
#   - the image holds hwaccel and hwaccel-nvml (deploy/container/image-files.txt)
#     and, beside them, only the C runtime glibc-rootfs.sh lists;
#   - the entrypoint is hwaccel, NVIDIA_VISIBLE_DEVICES=all and
#     NVIDIA_DRIVER_CAPABILITIES=utility are set (in the image and in
#     deploy/kubernetes/daemonset.yaml, with runtimeClassName: nvidia);
#   - on a GPU node: what the NVIDIA container toolkit injects is put where it
#     puts it (libnvidia-ml.so.1 in /usr/lib/x86_64-linux-gnu, nvidia-smi in
#     /usr/bin), here the stand-ins of `hwsim materialize` for the h100-mig
#     fixture (the nvidia-smi stand-in is a sh script: this machine's sh and cat go
#     in with it, glibc programs like the real one), and the image's own hwaccel,
#     run chrooted in the image's root with the simulated /sys at /sim (--root; the
#     image's own tools, not the tree's: --root-tools),
#     finds the GPU and its 4 MIG devices ready, through hwaccel-nvml and NVML;
#   - without the C runtime (the old FROM scratch image), the same run says the
#     injected tools were found and cannot execute, not "not found".
# `podman run` needs an OCI runtime that can set rlimits and namespaces: CI's
# container cannot (crun: setrlimit RLIMIT_NPROC: EPERM). The image is run with
# `buildah run --isolation chroot` (no OCI runtime), else entered with chroot
# (root only; skipped otherwise); the report says which.
# Usage: container_image_test.sh HWACCEL HWACCEL_NVML LIBNVIDIA_ML HWSIM SOURCE_DIR.
# Exit 77 without buildah unless CI=true.
set -u
hwaccel=$1 nvml_helper=$2 libnvml=$3 hwsim=$4 src=$5
say() { echo "container_image: $*"; }
. "$src/tests/fleet/buildah_store.sh"
mkdir "$tmp/ctx"
cp "$src/deploy/container/Containerfile" "$hwaccel" "$nvml_helper" "$tmp/ctx/" || exit 1
sh "$src/deploy/container/glibc-rootfs.sh" "$tmp/ctx" || exit 1
b bud -q -t hwaccel-test -f "$tmp/ctx/Containerfile" "$tmp/ctx" >/dev/null || { say "FAIL: buildah bud"; exit 1; }
ctr=$(b from hwaccel-test) || exit 1
mnt=$(b mount "$ctr") || exit 1
fail=0
(cd "$mnt" && find . -type f | sed 's|^\./||' | sort) > "$tmp/files"
{ cat "$src/deploy/container/image-files.txt"; sh "$src/deploy/container/glibc-rootfs.sh" x --list; } |
  sort > "$tmp/want"
if ! cmp -s "$tmp/want" "$tmp/files"; then
  say "FAIL: the image holds:"; cat "$tmp/files"; fail=1
fi
cfg=$(b inspect --format '{{.OCIv1.Config.Entrypoint}} {{.OCIv1.Config.Env}}' hwaccel-test)
for want in /usr/local/bin/hwaccel NVIDIA_VISIBLE_DEVICES=all NVIDIA_DRIVER_CAPABILITIES=utility; do
  case $cfg in *"$want"*) ;; *) say "FAIL: image config lacks $want: $cfg"; fail=1 ;; esac
done

# The DaemonSet asks for the toolkit's runtime and the same two variables.
for want in 'runtimeClassName: nvidia' '{name: NVIDIA_VISIBLE_DEVICES, value: all}' \
  '{name: NVIDIA_DRIVER_CAPABILITIES, value: utility}'; do
  grep -qF "$want" "$src/deploy/kubernetes/daemonset.yaml" || { say "FAIL: the DaemonSet lacks $want"; fail=1; }
done

if [ "$(id -u)" != 0 ]; then
  say "not root: the chrooted detection is skipped"
  [ $fail -eq 0 ] && say "built; files: $(tr '\n' ' ' < "$tmp/files")"
  exit $fail
fi
# What the toolkit injects, and a simulated GPU node's /sys, /proc and /dev.
"$hwsim" materialize "$src/fixtures/hosts/h100-mig.yaml" "$mnt/sim" > "$tmp/materialize.log" 2>&1 ||
  { say "FAIL: materialize: $(cat "$tmp/materialize.log")"; exit 1; }
chroot=$(command -v chroot) || { say "FAIL: no chroot"; exit 1; }
libdir=$mnt/usr/lib/x86_64-linux-gnu
mkdir -p "$libdir" "$mnt/usr/bin" "$mnt/bin"
cp -L "$libnvml" "$libdir/libnvidia-ml.so.1"
# The stand-in library's own needs that a real libnvidia-ml.so.1 does not have.
ldd "$libnvml" | awk '$3 ~ /^\// { print $3 }' | while read -r lib; do
  [ -e "$mnt$lib" ] || cp -L "$lib" "$libdir/"
done
cp "$mnt/sim/.hwsim/bin/nvidia-smi" "$mnt/usr/bin/nvidia-smi"
cp -r "$mnt/sim/.hwsim/tools" "$mnt/usr/tools"  # the shim reads its answers from ../tools
# What the runtime gives every container: /dev/null (hwaccel's tools read it).
mkdir -p "$mnt/dev" && mknod -m 666 "$mnt/dev/null" c 1 3 || { say "FAIL: mknod /dev/null"; exit 1; }
cp -L /bin/sh "$mnt/bin/sh"
cp -L /usr/bin/cat "$mnt/usr/bin/cat"
# The image is run by buildah (`buildah run --isolation chroot`: the container tools'
# own run, with no OCI runtime), else entered with chroot where buildah cannot.
runner=chroot
if b run --isolation chroot "$ctr" -- /bin/sh -c true >/dev/null 2>&1; then runner=buildah; fi
detect() {
  if [ "$runner" = buildah ]; then
    b run --isolation chroot -e PATH=/usr/local/bin:/usr/bin:/bin \
      -e HWSIM_NVML_SNAPSHOT=/sim/.hwsim/snapshot.yaml "$ctr" -- \
      /usr/local/bin/hwaccel detect --root /sim --root-tools "$@"
  else
    env -i PATH=/usr/local/bin:/usr/bin:/bin HWSIM_NVML_SNAPSHOT=/sim/.hwsim/snapshot.yaml \
      "$chroot" "$mnt" /usr/local/bin/hwaccel detect --root /sim --root-tools "$@"
  fi
}
out=$(detect --json) || { say "FAIL: hwaccel detect in the image: $out"; fail=1; }
n=$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(1 for e in d["devices"] if e["backend"]=="cuda" and e["status"]=="ready"))' 2>&1)
[ "$n" = 5 ] || { say "FAIL: the image's hwaccel found $n ready CUDA devices, not 5 (the GPU and its 4 MIG devices): $(detect)"; fail=1; }
nvml=$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join(w["message"] for w in d.get("warnings",[]) if "hwaccel-nvml" in w["message"] or "NVML" in w["message"]))')
[ -z "$nvml" ] || { say "FAIL: NVML was not used in the image: $nvml"; fail=1; }
# The same image without its C runtime: the injected tools are there and cannot run.
rm -f "$mnt/lib64/ld-linux-x86-64.so.2" "$mnt"/lib64/ld-linux*.so* "$mnt"/lib/ld-linux*.so*
line=$(detect | grep '^cuda ')
case $line in
  *"nvidia-smi found at /usr/bin/nvidia-smi and cannot execute: No such file or directory (its interpreter /bin/sh needs /lib"*) ;;
  *) say "FAIL: without glibc the cuda line is: $line"; fail=1 ;;
esac
case $line in *"not found"*) say "FAIL: 'not found' for a tool that is there: $line"; fail=1 ;; esac
[ $fail -eq 0 ] && say "built; files: $(tr '\n' ' ' < "$tmp/files"); run by $runner: $n ready CUDA devices; without glibc: ${line#cuda }"
exit $fail
