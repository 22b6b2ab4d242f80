// The CUDA backend (first version): nvidia-smi --query-gpu in CSV with a header.
#pragma once

#include <string>
#include <vector>

#include "src/probe/probe.h"

namespace hwaccel {

// The fields asked of nvidia-smi, in this order. Columns are mapped by header
// name, so the order only matters for the exact argv that snapshots record.
inline const std::vector<std::string>& cuda_query_fields() {
  static const std::vector<std::string> fields = {
      "index", "uuid", "pci.bus_id", "name", "memory.total", "memory.used", "memory.free",
      "compute_cap", "driver_version"};
  return fields;
}

// nvidia-smi --query-gpu=<fields joined by ','> --format=csv
std::vector<std::string> cuda_query_argv(const std::vector<std::string>& fields);

class CudaProbe : public Probe {
 public:
  std::string name() const override { return "cuda"; }
  ProbeResult run(Host& host) const override;
};

}  // namespace hwaccel
