// The Intel Gaudi backend:
//
//   1. /sys/bus/pci/devices/*   Habana (0x1da3) functions: the cards whatever the
//                               driver says (src/catalog/habana_ids.h names them).
//   2. hl-smi -Q index,name,bus_id,memory.total,memory.free,driver_version -f csv
//                               run only when the bus shows a Habana function.
//
// Without hl-smi, cards bound to habanalabs are tool-not-found and cards with no
// driver are driver-not-found, as the CUDA probe does with nvidia-smi.
#pragma once

#include <string>
#include <vector>

#include "src/probe/probe.h"

namespace hwaccel {

std::vector<std::string> gaudi_query_argv();

class GaudiProbe : public Probe {
 public:
  std::string name() const override { return "gaudi"; }
  ProbeResult run(Host& host) const override;
};

}  // namespace hwaccel
