#include "src/probe/nvidia_visible_devices.h"

#include "src/vocabulary/text_util.h"

namespace hwaccel {

CudaVisibleDevices parse_cuda_visible_devices(std::string_view value) {
  CudaVisibleDevices visible;
  if (trim(value).empty()) return visible;
  for (auto piece : split(value, ',')) {
    auto token = trim(piece);
    CudaVisibleToken parsed;
    if (auto number = parse_u64(token); number && *number <= 1'000'000) {
      parsed.is_index = true;
      parsed.index = static_cast<int>(*number);
    } else if (token.size() > 4 && (token.substr(0, 4) == "GPU-" || token.substr(0, 4) == "MIG-")) {
      parsed.uuid = std::string(token);
    } else {
      visible.stopped = true;
      visible.stopped_at = printable_line(token, 60);
      break;
    }
    visible.tokens.push_back(std::move(parsed));
  }
  return visible;
}

NvidiaVisibleDevices parse_nvidia_visible_devices(std::string_view value) {
  constexpr std::size_t kMaxTokens = 1024;
  NvidiaVisibleDevices out;
  const auto text = trim(value);
  if (text.empty() || text == "void") return out;
  if (text == "all") {
    out.kind = NvidiaVisibleDevices::Kind::all;
    return out;
  }
  if (text == "none") {
    out.kind = NvidiaVisibleDevices::Kind::none;
    return out;
  }
  if (text.front() == '/') {
    out.kind = NvidiaVisibleDevices::Kind::directory;
    out.directory = printable_line(text, 200);
    return out;
  }
  out.kind = NvidiaVisibleDevices::Kind::list;
  for (auto piece : split(text, ',')) {
    auto token = trim(piece);
    if (token.empty()) continue;
    if (out.tokens.size() == kMaxTokens) break;
    out.tokens.push_back(printable_line(token, 80));
  }
  if (out.tokens.empty()) out.kind = NvidiaVisibleDevices::Kind::nothing_said;
  return out;
}

}  // namespace hwaccel
