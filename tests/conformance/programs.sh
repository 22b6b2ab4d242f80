#!/bin/sh
# Run inside `hwsim run HOST -- sh programs.sh`: the third-party programs of the
# conformance matrix, each output in a section "=== NAME" ended by "=== exit N".
# A program this machine lacks is "=== exit missing" (not counted).
run() {
  name=$1
  shift
  echo "=== $name"
  if command -v "$1" >/dev/null 2>&1; then
    # Through a variable: output without a last newline (neuron-ls's JSON) still
    # leaves "=== exit" at the start of a line.
    out=$("$@" 2>&1)
    rc=$?
    if [ -n "$out" ]; then printf '%s\n' "$out"; fi
    echo "=== exit $rc"
  else
    echo "=== exit missing"
  fi
}
# `programs.sh mac`: a simulated Mac, whose kernel tree is not Linux's: only macOS's tools.
if [ "${1:-}" = mac ]; then
  run sysctl sysctl -n hw.memsize hw.ncpu hw.perflevel0.physicalcpu machdep.cpu.brand_string
  run sp-hardware system_profiler SPHardwareDataType -json
  run sp-displays system_profiler SPDisplaysDataType
  exit 0
fi
run lscpu lscpu
run lscpu-e lscpu -e
run lspci lspci -nn -k -vmm
run lspci-t lspci -t
run lstopo lstopo-no-graphics --of xml
run numactl numactl -H
run getconf getconf _NPROCESSORS_CONF
run free free -b
run ls-drm ls -l /sys/class/drm
run ls-dev ls -l /dev /dev/dri /dev/accel /dev/vfio /dev/nvidia-caps
echo "=== test-nvidia0"
if test -c /dev/nvidia0; then echo char; else echo none; fi
echo "=== exit 0"
# Emulated vendor tools (sim/emulate/), with argvs no snapshot records.
run nvsmi-list nvidia-smi --list-gpus
run nvsmi-query nvidia-smi --query-gpu=uuid,name,memory.total --format=csv,noheader,nounits
run nvsmi-xml nvidia-smi -q -x
run nvsmi-topo nvidia-smi topo --matrix
run nvsmi-lgi nvidia-smi mig -lgi
run nvsmi-lgip nvidia-smi mig --list-gpu-instance-profiles
run nvsmi-helpq nvidia-smi --help-query-gpu
run hlsmi-query hl-smi -Q name,bus_id,memory.total -f csv,noheader,nounits
run neuronls-json neuron-ls -j
run xpusmi-json xpu-smi discovery -j
run vulkaninfo-full vulkaninfo
# ROCm's own rocm-smi (Debian's librocm-smi64, not an emulator): its script run
# by path, past the snapshot's tool shims on PATH.
echo "=== rocmsmi-real"
if [ -f /usr/libexec/rocm_smi/rocm_smi.py ] && [ -x /usr/bin/python3 ]; then
  out=$(/usr/bin/python3 /usr/libexec/rocm_smi/rocm_smi.py --showbus --showmeminfo vram gtt \
    --showproductname 2>&1)
  rc=$?
  printf '%s\n' "$out"
  echo "=== exit $rc"
else
  echo "=== exit missing"
fi
# What this machine is must not show through (docs/hwsim.md "Nothing of this
# machine leaks"): cgroups, mounts, PID 1, a container check.
run self-cgroup cat /proc/self/cgroup
run pid1-cgroup cat /proc/1/cgroup
run mountinfo cat /proc/self/mountinfo
run mounts cat /proc/mounts
run detect-virt systemd-detect-virt --container
run detect-virt-vm systemd-detect-virt --vm
