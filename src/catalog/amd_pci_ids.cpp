#include "src/catalog/amd_pci_ids.h"

#include <algorithm>
#include <array>

namespace hwaccel {
namespace {

// Sorted by id. The pci.ids line each name comes from is beside it (device
// lines under "1002  Advanced Micro Devices, Inc. [AMD/ATI]"); the bracketed
// marketing name is preferred, the codename kept in parentheses.
constexpr std::array kModels = {
    // "150e  Strix [Radeon 880M / 890M]" (Ryzen AI 300 "Strix Point" APUs)
    AmdGpuModel{0x150e, "AMD Radeon 880M/890M Graphics (Strix Point)", true},
    // "1586  Strix Halo [Radeon Graphics / Radeon 8050S Graphics / Radeon 8060S Graphics]"
    // (Ryzen AI Max 385/390/395; the variants share the id and differ by CU count)
    AmdGpuModel{0x1586, "AMD Radeon 8050S/8060S Graphics (Strix Halo)", true},
    // "15bf  Phoenix1 [Radeon 760M/780M]" (Ryzen 7040/8040 APUs)
    AmdGpuModel{0x15bf, "AMD Radeon 760M/780M Graphics (Phoenix1)", true},
    // "164e  Raphael" (the Ryzen 7000/9000 desktop CPUs' 2-CU RDNA2 iGPU)
    AmdGpuModel{0x164e, "AMD Radeon Graphics (Raphael)", true},
    // "687f  Vega 10 XL/XT [Radeon RX Vega 56/64]"
    AmdGpuModel{0x687f, "AMD Radeon RX Vega 56/64 (Vega 10)", false},
    // "740c  Aldebaran/MI200 [Instinct MI250X/MI250]": one id per GCD; a package is two
    AmdGpuModel{0x740c, "AMD Instinct MI250X/MI250", false},
    // "740f  Aldebaran/MI200 [Instinct MI210]"
    AmdGpuModel{0x740f, "AMD Instinct MI210", false},
    // "7448  Navi 31 [Radeon Pro W7900]"
    AmdGpuModel{0x7448, "AMD Radeon PRO W7900", false},
    // "744c  Navi 31 [Radeon RX 7900 XT/7900 XTX/7900M]"
    AmdGpuModel{0x744c, "AMD Radeon RX 7900 XT/7900 XTX/7900M", false},
    // "74a0  Aqua Vanjaram [Instinct MI300A]": CPU and GPU share HBM3
    AmdGpuModel{0x74a0, "AMD Instinct MI300A", true},
    // "74a1  Aqua Vanjaram [Instinct MI300X]"
    AmdGpuModel{0x74a1, "AMD Instinct MI300X", false},
    // "74a5  Aqua Vanjaram [Instinct MI325X]"
    AmdGpuModel{0x74a5, "AMD Instinct MI325X", false},
};

static_assert(std::is_sorted(kModels.begin(), kModels.end(),
                             [](const AmdGpuModel& a, const AmdGpuModel& b) {
                               return a.device_id < b.device_id;
                             }),
              "kModels must stay sorted by device id");

}  // namespace

std::optional<AmdGpuModel> find_amd_gpu_model(std::uint16_t device_id) {
  auto at = std::lower_bound(
      kModels.begin(), kModels.end(), device_id,
      [](const AmdGpuModel& model, std::uint16_t id) { return model.device_id < id; });
  if (at == kModels.end() || at->device_id != device_id) return std::nullopt;
  return *at;
}

}  // namespace hwaccel
