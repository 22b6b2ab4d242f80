// The CPU backend: always ready. Name and ISA class from /proc/cpuinfo, memory
// from /proc/meminfo (on a tree without it, the NUMA nodes' meminfo summed, as
// the system scan counts it), the logical CPU count from the host's facts.
#pragma once

#include "src/probe/probe.h"

namespace hwaccel {

class CpuProbe : public Probe {
 public:
  std::string name() const override { return "cpu"; }
  ProbeResult run(Host& host) const override;
};

}  // namespace hwaccel
