// Intel GPUs by PCI device id: name, architecture and whether the part is
// discrete. Sources: the kernel's include/drm/intel/pciids.h (i915/xe id tables),
// Intel's product pages (memory sizes), xpu-smi/Level Zero captures for the
// Data Center GPU Max 1550 (device_id=0xBD5).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hwaccel {

struct IntelGpuModel {
  std::string_view name;          // "Intel Data Center GPU Max 1550"
  std::string_view architecture;  // "xe-hpc", "xe-hpg", "xe2-hpg", "xe-lpg", "xe2-lpg", "xe-lp"
  bool discrete = false;
};

std::optional<IntelGpuModel> find_intel_gpu(std::uint16_t device_id);

}  // namespace hwaccel
