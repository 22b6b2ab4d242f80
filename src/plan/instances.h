// The cloud instance catalogue (instances.toml, format hwaccel-instances/1).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/plan/catalogue.h"

namespace hwaccel::plan {

struct Instance {
  std::string provider;
  std::string instance;
  std::string accelerator;  // SKU id in the device catalogue
  int count = 1;
  double host_memory_bytes = 0;
  double usd_per_hour = 0;
  std::string region;
  std::string date;
  std::string source;
};

struct InstancesResult {
  std::vector<Instance> instances;
  std::string error;  // located; an accelerator the catalogue lacks is an error
  bool ok() const { return error.empty(); }
};

InstancesResult parse_instances(std::string_view text, const std::string& file,
                                const Catalogue& catalogue);

}  // namespace hwaccel::plan
