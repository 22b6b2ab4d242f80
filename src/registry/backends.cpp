#include "src/registry/backends.h"

#include <algorithm>

namespace hwaccel {

const std::vector<std::string>& known_backend_names() {
  static const std::vector<std::string> names = {"cuda",      "rocm",     "apple",  "vulkan",
                                                 "intel_npu", "amd_xdna", "tpu",    "gaudi",
                                                 "neuron",    "qualcomm", "oneapi", "cpu"};
  return names;
}

bool is_known_backend(const std::string& name) {
  const auto& names = known_backend_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace hwaccel
