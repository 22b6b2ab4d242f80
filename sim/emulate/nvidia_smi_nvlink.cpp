// nvidia-smi nvlink -s from the host model. Layout: the real captures in
// /work/shared/real-captures/ (nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt: the
// GPU line, then "\t Link N: 26.562 GB/s" per link; ...-h100-mig__590.48.01.txt: the
// refusal under MIG mode). The number of links is the largest bonded set (NV18 -> 18)
// the detection holds for the GPU; the per-link rate is its NVLink generation's.
#include <algorithm>

#include "sim/emulate/nvidia_smi.h"

namespace hwaccel::sim {
namespace {

// Per link and direction: NVLink 3 (A100) 25 GB/s, NVLink 4 (H100/H200) 26.562 as the
// capture prints it, NVLink 5 (Blackwell) 50; "" when the generation is not known.
std::string link_rate(const std::string& compute_cap) {
  if (compute_cap == "8.0") return "25 GB/s";
  if (compute_cap == "9.0") return "26.562 GB/s";
  if (compute_cap.rfind("10.", 0) == 0) return "50 GB/s";
  return "";
}

}  // namespace

std::string nvsmi_nvlink_status(const NvModel& m, const std::vector<int>& gpus) {
  std::string out;
  for (int i : gpus) {
    const NvGpu& g = m.gpus[static_cast<std::size_t>(i)];
    out += "GPU " + std::to_string(g.index) + ": " + g.name + " (UUID: " + g.uuid + ")\n";
    if (!g.migs.empty()) {
      out += "Nvlink queries are not supported for Devices in MIG mode\n";
      continue;
    }
    int links = 0;
    for (const auto& l : m.links)
      if (l.kind == "nvlink" && (l.a == m.physical_ids[i] || l.b == m.physical_ids[i]))
        links = std::max(links, l.lanes);
    const std::string rate = link_rate(g.compute_cap);
    for (int n = 0; n < links; ++n)
      out += "\t Link " + std::to_string(n) + ": " + (rate.empty() ? "N/A" : rate) + "\n";
  }
  return out;
}

}  // namespace hwaccel::sim
