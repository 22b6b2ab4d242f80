// The fields `nvidia-smi --query-gpu=` accepts, as its --help-query-gpu lists them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hwaccel::sim {

// Whether nvidia-smi accepts `name` (an alias such as gpu_name included).
bool is_query_gpu_field(std::string_view name);
// The field an alias stands for ("gpu_name" -> "name"); other names unchanged.
std::string canonical_query_field(std::string_view name);
// The unit nvidia-smi's CSV header gives the field ("MiB" for memory.total), or "".
std::string query_field_unit(std::string_view canonical);
// Every accepted name, sorted.
std::vector<std::string> query_gpu_fields();

}  // namespace hwaccel::sim
