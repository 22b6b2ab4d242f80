#include "src/probe/rocm_visible.h"

#include <algorithm>

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

// One list applied to `candidates` (agent indices); what it leaves, in its order.
std::vector<std::size_t> apply(const std::vector<std::string>& agents,
                               const std::vector<std::size_t>& candidates, const std::string& name,
                               const std::string& value, std::string& problem) {
  std::vector<std::size_t> out;
  if (trim(value).empty()) return out;
  for (auto piece : split(value, ',')) {
    const auto token = trim(piece);
    std::vector<std::size_t> matches;
    if (auto index = parse_u64(token)) {
      if (*index < candidates.size()) matches.push_back(candidates[*index]);
    } else if (token.size() > 4 && token.substr(0, 4) == "GPU-") {
      const std::string wanted = to_lower(token);
      for (auto c : candidates)
        if (!agents[c].empty() && to_lower(agents[c]).rfind(wanted, 0) == 0) matches.push_back(c);
    }
    const bool twice =
        matches.size() == 1 && std::find(out.begin(), out.end(), matches[0]) != out.end();
    if (matches.size() != 1 || twice) {
      if (problem.empty())
        problem = name + "=" + printable_line(value, 120) + ": \"" + printable_line(token, 60) +
                  "\" " + (twice ? "names a device named before" : "names no single device") +
                  "; it and every entry after it are ignored";
      break;
    }
    out.push_back(matches[0]);
  }
  return out;
}

}  // namespace

RocmEnumeration rocm_enumerate(const std::vector<std::string>& agents,
                               const std::optional<std::string>& rocr_visible_devices,
                               const std::optional<std::string>& hip_visible_devices,
                               const std::optional<std::string>& cuda_visible_devices) {
  RocmEnumeration out;
  std::vector<std::size_t> all(agents.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  out.devices = all;
  if (rocr_visible_devices)
    out.devices = apply(agents, all, "ROCR_VISIBLE_DEVICES", *rocr_visible_devices, out.problem);
  if (hip_visible_devices)
    out.devices =
        apply(agents, out.devices, "HIP_VISIBLE_DEVICES", *hip_visible_devices, out.problem);
  else if (cuda_visible_devices)
    out.devices =
        apply(agents, out.devices, "CUDA_VISIBLE_DEVICES", *cuda_visible_devices, out.problem);
  return out;
}

}  // namespace hwaccel
