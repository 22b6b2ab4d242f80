#!/bin/sh
# The shell version of tests/support/host_reader.cpp: what a script that parses
# /proc/meminfo, /sys/class/drm and nvidia-smi sees under `hwsim run`.
echo "MemTotal: $(sed -n 's/^MemTotal: *//p' /proc/meminfo)"
if [ -d /sys/class/drm ]; then
  echo "drm: $(ls /sys/class/drm | tr '\n' ' ')"
else
  echo "drm: none"
fi
out=$(nvidia-smi --query-gpu=index,uuid,pci.bus_id,name,memory.total,memory.used,memory.free,compute_cap,driver_version --format=csv 2>&1)
echo "nvidia-smi exit $?: $out"
[ -e /dev/nvidia0 ] && echo "/dev/nvidia0: present" || echo "/dev/nvidia0: absent"
echo "hostname: $(cat /proc/sys/kernel/hostname)"
