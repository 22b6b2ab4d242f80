// The CPU backend: always ready. Name and ISA class from /proc/cpuinfo, memory
// from /proc/meminfo (on a tree without it, the NUMA nodes' meminfo summed, as
// the system scan counts it), the logical CPU count from the host's facts.
#pragma once

#include "src/probe/probe.h"

namespace hwaccel {

struct HostResources;

class CpuProbe : public Probe {
 public:
  std::string name() const override { return "cpu"; }
  ProbeResult run(Host& host) const override;

  // A detection scans the host's resources once for this probe and the system
  // section (issue 37: the scan ran twice, four passes over a 224-CPU /proc/cpuinfo)
  // and lends them here; they must outlive run(). Without, run() scans them itself.
  void share_resources(const HostResources* resources) { shared_ = resources; }

 private:
  const HostResources* shared_ = nullptr;
};

}  // namespace hwaccel
