// The device node a scheduler hands to a job for each accelerator: what Slurm's
// gres.conf `File=` names and what a container runtime mounts.
//   any   the /dev node the backend's probe names in its provenance (TPU
//         /dev/accelN or /dev/vfio/N, Qualcomm /dev/accel/accelN), else:
//   cuda  /dev/nvidia<minor>, the minor from /proc/driver/nvidia/gpus/<bus>/information
//   rocm and other DRM devices  /dev/dri/renderD<N>, from /sys/bus/pci/devices/<bus>/drm/
//   compute accelerators (Intel NPU, AMD XDNA, ...)  /dev/accel/accel<N>, from .../accel/
//   tpu  /dev/accel<index>; neuron  /dev/neuron<index> (their drivers' own naming)
// When the machine does not say, the index is assumed and the answer says so.
#pragma once

#include <string>

#include "src/host/host.h"
#include "src/model/entry.h"

namespace hwaccel {

struct DeviceFile {
  std::string path;      // empty: no device node (the CPU, a MIG slice)
  std::string gres;      // Slurm GRES name: gpu, npu, tpu, neuron
  bool assumed = false;  // derived from the index, not read from the machine
  std::string source;    // where it was read, or why it was assumed
};

DeviceFile device_file(Host& host, const Entry& entry);

// "NVIDIA H100 80GB HBM3" -> "h100", "AMD Instinct MI300X" -> "mi300x",
// "NVIDIA GeForce RTX 4090" -> "rtx_4090": the short model name clusters use as
// Slurm's GRES Type.
std::string gres_type(const Entry& entry);

}  // namespace hwaccel
