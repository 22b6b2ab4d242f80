// The ROCm backend, read from sysfs alone (no tool): amdgpu's DRM cards under
// /sys/class/drm, the KFD topology for gfx targets and compute partitions, and
// the PCI bus for AMD GPUs that no driver (or another driver) holds.
// Every file read is listed in docs/probes-rocm.md.
#pragma once

#include "src/probe/probe.h"

namespace hwaccel {

class RocmProbe : public Probe {
 public:
  std::string name() const override { return "rocm"; }
  ProbeResult run(Host& host) const override;
};

}  // namespace hwaccel
