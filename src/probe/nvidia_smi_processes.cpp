#include "src/probe/nvidia_smi_processes.h"

#include <algorithm>

#include "src/probe/nvidia_smi_csv.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

// More than a GPU could hold (NVML's own process lists are sized by the caller).
constexpr std::size_t kMaxRows = 4096, kMaxName = 1024;

}  // namespace

std::map<std::string, std::vector<RecordedProcess>> recorded_processes(std::string_view csv) {
  std::map<std::string, std::vector<RecordedProcess>> out;
  const NvidiaSmiTable t = parse_nvidia_smi_csv(csv);
  const auto bus = t.column("gpu_bus_id"), pid = t.column("pid");
  const auto name = t.column("process_name"), memory = t.column("used_gpu_memory");
  if (!bus || !pid) return out;
  for (std::size_t r = 0; r < t.rows.size() && r < kMaxRows; ++r) {
    const auto& row = t.rows[r];
    const std::string key = normalise_pci_bus_id(row[*bus]);
    const auto id = parse_u64(row[*pid]);
    if (key.empty() || !id || *id == 0 || *id > 0xffffffffu) continue;
    auto& list = out[key];
    const auto same = [&](const RecordedProcess& p) { return p.pid == *id; };
    if (std::any_of(list.begin(), list.end(), same)) continue;
    RecordedProcess p;
    p.pid = static_cast<unsigned>(*id);
    if (name && row[*name].size() <= kMaxName && !is_no_value(row[*name])) p.name = row[*name];
    if (memory)
      if (auto bytes = parse_memory_bytes(row[*memory], t.units[*memory]);
          bytes && *bytes < (1ull << 60))
        p.used_bytes = *bytes;
    list.push_back(std::move(p));
  }
  return out;
}

}  // namespace hwaccel
