// AMD GPU PCI device ids (vendor 0x1002) -> a product name, and whether the
// device is an APU (an integrated GPU whose memory is the host's). Used when
// the kernel gives no product_name, and for GPUs without a driver bound.
// Every id here was checked against pci.ids (pciutils/hwdata); see the .cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hwaccel {

struct AmdGpuModel {
  std::uint16_t device_id = 0;
  std::string_view name;  // "AMD Instinct MI300X"
  bool apu = false;       // integrated: small VRAM carve-out, the rest through GTT
};

// nullopt for an id the catalogue does not know.
std::optional<AmdGpuModel> find_amd_gpu_model(std::uint16_t device_id);

}  // namespace hwaccel
