// Whether a recorded host had NVIDIA's user-space software (the driver's
// libraries): where it did not, a program's dlopen("libnvidia-ml.so.1") or
// dlopen("libcuda.so.1") fails there, which device plugins and runtimes tell
// apart from a library that loads and answers "driver not loaded".
#pragma once

#include <string>

#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

struct NvidiaSoftware {
  bool present = false;
  std::string why;  // what in the snapshot says so ("nvidia-smi ran", ...)
};

// Present when the snapshot records nvidia-smi as found (whatever it answered),
// the nvidia kernel module (/proc/driver/nvidia, /sys/module/nvidia), or one of
// the libraries; absent otherwise (nvidia-smi recorded as not found, or a host
// with no trace of NVIDIA at all).
NvidiaSoftware nvidia_software(const Snapshot& snapshot);

}  // namespace hwaccel::sim
