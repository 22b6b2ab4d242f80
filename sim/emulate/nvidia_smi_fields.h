// The fields `nvidia-smi --query-gpu=` accepts, as its --help-query-gpu lists them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hwaccel::sim {

// Whether nvidia-smi of `driver_version` ("590.48.01"; "" for the newest known)
// accepts `name` (an alias such as gpu_name included): a field newer than the
// driver is unknown to it.
bool is_query_gpu_field(std::string_view name, std::string_view driver_version = "");
// The field an alias stands for ("gpu_name" -> "name"); other names unchanged.
std::string canonical_query_field(std::string_view name);
// The unit nvidia-smi's CSV header gives the field ("MiB" for memory.total), or "".
std::string query_field_unit(std::string_view canonical);
// Every accepted name, sorted.
std::vector<std::string> query_gpu_fields();
// `nvidia-smi --help-query-gpu` in the tool's layout, for a driver of that version.
std::string help_query_gpu(std::string_view driver_version);

}  // namespace hwaccel::sim
