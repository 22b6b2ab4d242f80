// The AMD XDNA backend (Ryzen AI NPU): accel devices bound to amdxdna, and
// XDNA functions on the PCI bus without it. See accel_npu_scan.h.
#pragma once

#include "src/probe/probe.h"

namespace hwaccel {

class AmdXdnaProbe : public Probe {
 public:
  std::string name() const override { return "amd_xdna"; }
  ProbeResult run(Host& host) const override;
};

}  // namespace hwaccel
