#!/bin/sh
# Run inside `hwsim run HOST -- sh programs.sh`: the third-party programs of the
# conformance matrix, each output in a section "=== NAME" ended by "=== exit N".
# A program this machine lacks is "=== exit missing" (not counted).
run() {
  name=$1
  shift
  echo "=== $name"
  if command -v "$1" >/dev/null 2>&1; then
    "$@" 2>&1
    echo "=== exit $?"
  else
    echo "=== exit missing"
  fi
}
run lscpu lscpu
run lscpu-e lscpu -e
run lspci lspci -nn -k -vmm
run lstopo lstopo-no-graphics --of xml
run numactl numactl -H
run getconf getconf _NPROCESSORS_CONF
run free free -b
run ls-drm ls -l /sys/class/drm
run ls-dev ls -l /dev /dev/dri /dev/accel /dev/vfio /dev/nvidia-caps
echo "=== test-nvidia0"
if test -c /dev/nvidia0; then echo char; else echo none; fi
echo "=== exit 0"
