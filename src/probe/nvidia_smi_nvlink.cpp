#include "src/probe/nvidia_smi_nvlink.h"

#include "src/vocabulary/text_util.h"

namespace hwaccel {

std::vector<NvlinkStatus> parse_nvidia_smi_nvlink(std::string_view text) {
  constexpr std::size_t kMaxGpus = 256;
  std::vector<NvlinkStatus> out;
  for (auto raw : split_lines(text)) {
    auto line = trim(raw);
    if (line.rfind("GPU ", 0) == 0) {
      auto colon = line.find(':');
      auto index = parse_u64(line.substr(4, colon == std::string_view::npos ? 0 : colon - 4));
      if (!index || *index > 100000 || out.size() == kMaxGpus) continue;
      out.push_back({int(*index), 0});
      continue;
    }
    if (out.empty() || line.rfind("Link ", 0) != 0) continue;
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    auto speed = trim(line.substr(colon + 1));
    if (speed.size() > 5 && speed.substr(speed.size() - 5) == " GB/s") ++out.back().active_links;
  }
  return out;
}

}  // namespace hwaccel
