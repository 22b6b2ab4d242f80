// NPUs by PCI id: which generation a device id (and, for AMD, the revision) is.
// Intel: drivers/accel/ivpu/ivpu_drv.h (PCI_DEVICE_ID_MTL 0x7d1d, ARL 0xad1d,
// LNL 0x643e, PTL_P 0xb03e). AMD: drivers/accel/amdxdna/amdxdna_pci_drv.c
// (0x1502 rev 0x00 npu1; 0x17f0 rev 0x00 npu2, 0x10 npu4, 0x11 npu5, 0x20 npu6).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hwaccel {

struct NpuModel {
  std::string_view name;           // "Intel AI Boost NPU (Meteor Lake)"
  std::string_view generation;     // "NPU 3720", "XDNA 2 (npu4)"
  std::string_view compute_class;  // "npu3720", "xdna2-npu4"
};

std::optional<NpuModel> find_intel_npu(std::uint16_t device_id);
std::optional<NpuModel> find_amd_npu(std::uint16_t device_id, std::optional<std::uint8_t> revision);

}  // namespace hwaccel
