// A connection between two devices (or a device and the CPU side), as a
// topology tool reports it: NVLink bundles, PCIe paths, xGMI. Kept in the
// registry for sharding plans.
#pragma once

#include <string>

namespace hwaccel {

struct Link {
  std::string a;       // physical_id of one end
  std::string b;       // physical_id of the other end
  std::string kind;    // "nvlink" | "pcie" | "xgmi"
  int lanes = 0;       // NVLink: links in the bonded set (NV18 -> 18); 0 when not applicable
  std::string path;    // PCIe relationship as reported: PIX, PXB, PHB, NODE, SYS; empty otherwise
  std::string source;  // where it came from, e.g. "tool:nvidia-smi topo -m"

  friend bool operator==(const Link&, const Link&) = default;
  friend auto operator<=>(const Link&, const Link&) = default;
};

}  // namespace hwaccel
