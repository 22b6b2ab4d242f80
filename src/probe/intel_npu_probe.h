// The Intel NPU backend (Core Ultra "AI Boost"): accel devices bound to
// intel_vpu, /sys/class/misc/intel_npu on older kernels, and Intel NPUs on the
// PCI bus without their driver. See accel_npu_scan.h.
#pragma once

#include "src/probe/probe.h"

namespace hwaccel {

class IntelNpuProbe : public Probe {
 public:
  std::string name() const override { return "intel_npu"; }
  ProbeResult run(Host& host) const override;
};

}  // namespace hwaccel
