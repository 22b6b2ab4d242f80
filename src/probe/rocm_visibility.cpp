#include "src/probe/rocm_visibility.h"

#include <set>
#include <utility>

#include "src/probe/rocm_visible.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {

void rocm_apply_visible_devices(Host& host, ProbeResult& result) {
  auto& entries = result.entries;
  std::vector<std::string> agents;
  std::vector<std::size_t> entry_of;
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].status == EntryStatus::ready && !entries[i].partitioned) {
      agents.push_back(entries[i].uuid);
      entry_of.push_back(i);
    }
  const auto rocr = host.env("ROCR_VISIBLE_DEVICES");
  const auto hip = host.env("HIP_VISIBLE_DEVICES");
  const auto cuda = hip ? std::nullopt : host.env("CUDA_VISIBLE_DEVICES");
  const auto shown = rocm_enumerate(agents, rocr, hip, cuda);
  std::set<std::string> parents_shown;
  for (std::size_t k = 0; k < shown.devices.size(); ++k) {
    Entry& e = entries[entry_of[shown.devices[k]]];
    e.ordinal = int(k);
    if (e.partition) parents_shown.insert(e.partition->parent_physical_id);
  }
  if (!rocr && !hip && !cuda) return;
  if (!shown.problem.empty()) result.warnings.push_back(Warning{"rocm", shown.problem});
  std::string named;
  for (const auto& [name, value] :
       {std::pair{"ROCR_VISIBLE_DEVICES", rocr},
        std::pair{hip ? "HIP_VISIBLE_DEVICES" : "CUDA_VISIBLE_DEVICES", hip ? hip : cuda}})
    if (value)
      named += (named.empty() ? "" : " and ") + std::string(name) + "=" +
               (value->empty() ? "\"\"" : printable_line(*value, 120));
  for (auto& e : entries) {
    if (e.ordinal || e.status != EntryStatus::ready) continue;
    if (e.partitioned && parents_shown.count(e.physical_id)) continue;
    e.status = EntryStatus::unavailable;
    e.reason = Reason{ReasonCode::not_visible, "hidden by " + named};
  }
}

}  // namespace hwaccel
