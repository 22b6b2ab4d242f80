// The oneAPI backend (Intel GPUs: Data Center GPU Max and Flex, Arc, integrated
// graphics), read from sysfs: DRM cards of vendor 0x8086 held by i915 or xe,
// their local memory where the driver publishes it (xe: tileN/
// physical_vram_size_bytes; Intel's out-of-tree i915: cardN/lmem_total_bytes and
// lmem_avail_bytes), `xpu-smi discovery` for names when a discrete GPU is there,
// and Intel display functions on the PCI bus that no driver holds.
#pragma once

#include "src/probe/probe.h"

namespace hwaccel {

class OneapiProbe : public Probe {
 public:
  std::string name() const override { return "oneapi"; }
  ProbeResult run(Host& host) const override;
};

}  // namespace hwaccel
