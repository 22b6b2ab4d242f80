#include "src/probe/nvidia_visible_devices.h"

#include "src/probe/text_util.h"

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

}  // namespace hwaccel
