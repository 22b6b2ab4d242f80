#include "src/catalog/google_tpu_ids.h"

namespace hwaccel {

std::optional<TpuGeneration> find_tpu_generation(std::uint16_t device_id,
                                                 std::optional<std::uint16_t> subsystem_device) {
  switch (device_id) {
    case 0x0027:  // v2 and v3 share the id; the subsystem tells them apart
      if (subsystem_device == 0x004e) return TpuGeneration{"v2", 8, false};
      if (subsystem_device == 0x004f) return TpuGeneration{"v3", 16, false};
      return std::nullopt;
    case 0x005e:
      return TpuGeneration{"v4", 32, false};
    case 0x0062:
      return TpuGeneration{"v5p", 95, true};
    case 0x0063:
      return TpuGeneration{"v5e", 16, true};
    case 0x006f:
      return TpuGeneration{"v6e", 32, true};
    case 0x0076:
      return TpuGeneration{"7x", 192, true};
    default:
      return std::nullopt;
  }
}

}  // namespace hwaccel
