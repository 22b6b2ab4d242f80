#include "src/probe/cuda_visibility.h"

#include <algorithm>

#include "src/probe/cuda_tool.h"
#include "src/probe/nvidia_visible_devices.h"
#include "src/probe/text_util.h"

namespace hwaccel {

void cuda_apply_visible_devices(const std::string& value, ProbeResult& result) {
  auto parsed = parse_cuda_visible_devices(value);
  std::vector<bool> visible(result.entries.size(), false);
  auto show = [&](std::size_t i) {
    visible[i] = true;
    if (result.entries[i].partition) return;
    for (std::size_t j = 0; j < result.entries.size(); ++j)  // a whole GPU shows its MIG slices
      if (result.entries[j].partition &&
          result.entries[j].partition->parent_physical_id == result.entries[i].physical_id)
        visible[j] = true;
  };
  const std::string shown = "CUDA_VISIBLE_DEVICES=" + printable_line(value, 120);
  std::string stopped_at = parsed.stopped_at;
  bool stopped = parsed.stopped;
  for (const auto& token : parsed.tokens) {
    std::vector<std::size_t> matches;
    for (std::size_t i = 0; i < result.entries.size(); ++i) {
      const Entry& e = result.entries[i];
      if (e.status != EntryStatus::ready) continue;
      if (token.is_index ? (!e.partition && e.index == token.index)
                         : (!e.uuid.empty() && e.uuid.rfind(token.uuid, 0) == 0))
        matches.push_back(i);
    }
    if (matches.size() != 1) {
      stopped = true;
      stopped_at = token.is_index ? std::to_string(token.index) : token.uuid;
      break;
    }
    show(matches.front());
  }
  if (stopped)
    result.warnings.push_back(cuda_warning(shown + ": \"" + stopped_at +
                                           "\" names no single device; CUDA ignores it and "
                                           "every entry after it"));
  for (std::size_t i = 0; i < result.entries.size(); ++i) {
    Entry& e = result.entries[i];
    if (visible[i] || e.status != EntryStatus::ready) continue;
    e.status = EntryStatus::unavailable;
    e.reason = Reason{ReasonCode::not_visible,
                      "hidden by " + (value.empty() ? shown + "\"\" (empty: no device)" : shown)};
  }
}

void cuda_settle_backend(ProbeResult& result, const std::optional<std::string>& visible_devices) {
  result.backend.ready = std::any_of(result.entries.begin(), result.entries.end(),
                                     [](const Entry& e) { return e.status == EntryStatus::ready; });
  if (result.backend.ready || result.entries.empty()) return;
  const bool all_hidden =
      std::all_of(result.entries.begin(), result.entries.end(), [](const Entry& e) {
        return e.reason && e.reason->code == ReasonCode::not_visible &&
               e.reason->detail.rfind("hidden by CUDA_VISIBLE_DEVICES", 0) == 0;
      });
  if (all_hidden && visible_devices) {
    result.backend.reason =
        Reason{ReasonCode::not_visible, "every GPU is hidden by CUDA_VISIBLE_DEVICES=" +
                                            printable_line(*visible_devices, 120)};
    return;
  }
  for (const auto& e : result.entries)
    if (e.reason && e.reason->code != ReasonCode::not_visible) {
      result.backend.reason = e.reason;
      return;
    }
  result.backend.reason = result.entries.front().reason;
}

}  // namespace hwaccel
