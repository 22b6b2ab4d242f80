#include "src/catalog/npu_pci_ids.h"

namespace hwaccel {

std::optional<NpuModel> find_intel_npu(std::uint16_t device_id) {
  switch (device_id) {
    case 0x7d1d:
      return NpuModel{"Intel AI Boost NPU (Meteor Lake)", "NPU 3720", "npu3720"};
    case 0xad1d:
      return NpuModel{"Intel AI Boost NPU (Arrow Lake)", "NPU 3720", "npu3720"};
    case 0x643e:
      return NpuModel{"Intel AI Boost NPU (Lunar Lake)", "NPU 4000", "npu4000"};
    case 0xb03e:
      return NpuModel{"Intel AI Boost NPU (Panther Lake)", "NPU 5000", "npu5000"};
    default:
      return std::nullopt;
  }
}

std::optional<NpuModel> find_amd_npu(std::uint16_t device_id,
                                     std::optional<std::uint8_t> revision) {
  if (device_id == 0x1502)
    return NpuModel{"AMD Ryzen AI NPU (Phoenix / Hawk Point)", "XDNA (npu1)", "xdna-npu1"};
  if (device_id != 0x17f0) return std::nullopt;
  if (!revision) return NpuModel{"AMD Ryzen AI NPU", "XDNA 2", "xdna2"};
  switch (*revision) {
    case 0x00:
      return NpuModel{"AMD Ryzen AI NPU", "XDNA 2 (npu2)", "xdna2-npu2"};
    case 0x10:
      return NpuModel{"AMD Ryzen AI NPU (Strix Point)", "XDNA 2 (npu4)", "xdna2-npu4"};
    case 0x11:
      return NpuModel{"AMD Ryzen AI NPU", "XDNA 2 (npu5)", "xdna2-npu5"};
    case 0x20:
      return NpuModel{"AMD Ryzen AI NPU", "XDNA 2 (npu6)", "xdna2-npu6"};
    default:
      return NpuModel{"AMD Ryzen AI NPU", "XDNA 2", "xdna2"};
  }
}

}  // namespace hwaccel
