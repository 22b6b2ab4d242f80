// GPUs the kernel shows that this process may not use: a container given some
// of the host's GPUs, or a Slurm step constrained to its own. sysfs shows every
// GPU on the bus, but the NVIDIA container toolkit mounts only the given GPUs'
// /dev/nvidiaN and /proc/driver/nvidia/gpus/<bus> folders and allows only their
// char devices (195:N) in the device cgroup, so nvidia-smi lists those alone.
// Such a GPU is not a failure: it is `not-visible`, with the evidence.
#pragma once

#include <vector>

#include "src/host/host.h"
#include "src/probe/nvidia_kernel_gpus.h"
#include "src/probe/probe.h"

namespace hwaccel {

// nvidia's char major: /dev/nvidia<minor>.
inline constexpr unsigned kNvidiaCharMajor = 195;

// Turns the unavailable, whole, kernel-only GPU entries of `result` (nvidia
// driver bound, but nvidia-smi does not list them or gave no GPU) into
// not-visible ones where the evidence says so, in this order: the v1 device
// cgroup's rules (devices.list), NVIDIA_VISIBLE_DEVICES, the toolkit's masked
// /proc/driver/nvidia/gpus. Under cgroup v2 the rules cannot be read: the
// reason it keeps says so. Reads nothing when no entry is such a GPU.
void cuda_mark_gpus_not_for_this_process(Host& host, const std::vector<KernelGpu>& bus,
                                         ProbeResult& result);

}  // namespace hwaccel
