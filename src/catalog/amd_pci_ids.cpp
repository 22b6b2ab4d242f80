#include "src/catalog/amd_pci_ids.h"

#include <algorithm>
#include <array>

namespace hwaccel {
namespace {

// Sorted by id. The pci.ids line each name comes from is beside it (device
// lines under "1002  Advanced Micro Devices, Inc. [AMD/ATI]"); the bracketed
// marketing name is preferred, the codename kept in parentheses where the
// brackets name no product. The ids added for Instinct, Radeon PRO and Radeon
// RX 5000-9000 come from pci.ids 2026.08.22 (github.com/pciutils/pciids, commit
// c1c12547d626); a few long lines there are shortened ("Radeon Pro X/Radeon Pro Y"
// -> "Radeon Pro X/Y").
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
    // "66a0  Vega 20 [Radeon Pro/Radeon Instinct]"
    AmdGpuModel{0x66a0, "AMD Radeon Instinct/Radeon Pro (Vega 20)", false},
    // "66a1  Vega 20 [Radeon Pro VII/Radeon Instinct MI50]"
    AmdGpuModel{0x66a1, "AMD Radeon Instinct MI50/Radeon Pro VII", false},
    // "6860  Vega 10 [Instinct MI25/MI25x2/V340/V320]"
    AmdGpuModel{0x6860, "AMD Instinct MI25/MI25x2/V340/V320", false},
    // "6864  Vega 10 [Radeon Pro V340/Instinct MI25x2]"
    AmdGpuModel{0x6864, "AMD Radeon Pro V340/Instinct MI25x2", false},
    // "686c  Vega 10 [Instinct MI25 MxGPU/MI25x2 MxGPU/V340 MxGPU/V340L MxGPU]"
    AmdGpuModel{0x686c, "AMD Instinct MI25/MI25x2/V340/V340L MxGPU", false},
    // "687f  Vega 10 XL/XT [Radeon RX Vega 56/64]"
    AmdGpuModel{0x687f, "AMD Radeon RX Vega 56/64 (Vega 10)", false},
    // "7310  Navi 10 [Radeon Pro W5700X]"
    AmdGpuModel{0x7310, "AMD Radeon Pro W5700X", false},
    // "7312  Navi 10 [Radeon Pro W5700]"
    AmdGpuModel{0x7312, "AMD Radeon Pro W5700", false},
    // "731f  Navi 10 [Radeon RX 5600 OEM/5600 XT / 5700/5700 XT]"
    AmdGpuModel{0x731f, "AMD Radeon RX 5600 OEM/5600 XT/5700/5700 XT", false},
    // "7340  Navi 14 [Radeon RX 5500/5500M / Pro 5300/5300M/5500M]"
    AmdGpuModel{0x7340, "AMD Radeon RX 5500/5500M/Pro 5300/5300M/5500M", false},
    // "7341  Navi 14 [Radeon Pro W5500]"
    AmdGpuModel{0x7341, "AMD Radeon Pro W5500", false},
    // "7347  Navi 14 [Radeon Pro W5500M]"
    AmdGpuModel{0x7347, "AMD Radeon Pro W5500M", false},
    // "734f  Navi 14 [Radeon Pro W5300M]"
    AmdGpuModel{0x734f, "AMD Radeon Pro W5300M", false},
    // "7362  Navi 12 [Radeon Pro V520/V540]"
    AmdGpuModel{0x7362, "AMD Radeon Pro V520/V540", false},
    // "738c  Arcturus GL-XL [Instinct MI100]"
    AmdGpuModel{0x738c, "AMD Instinct MI100", false},
    // "738e  Arcturus GL-XL [Instinct MI100]"
    AmdGpuModel{0x738e, "AMD Instinct MI100", false},
    // "73a1  Navi 21 [Radeon Pro V620]"
    AmdGpuModel{0x73a1, "AMD Radeon Pro V620", false},
    // "73a2  Navi 21 Pro-XTA [Radeon Pro W6900X]"
    AmdGpuModel{0x73a2, "AMD Radeon Pro W6900X", false},
    // "73a3  Navi 21 GL-XL [Radeon PRO W6800]"
    AmdGpuModel{0x73a3, "AMD Radeon PRO W6800", false},
    // "73a5  Navi 21 [Radeon RX 6950 XT]"
    AmdGpuModel{0x73a5, "AMD Radeon RX 6950 XT", false},
    // "73ab  Navi 21 Pro-XLA [Radeon Pro W6800X/Radeon Pro W6800X Duo]"
    AmdGpuModel{0x73ab, "AMD Radeon Pro W6800X/W6800X Duo", false},
    // "73ae  Navi 21 [Radeon Pro V620 MxGPU]"
    AmdGpuModel{0x73ae, "AMD Radeon Pro V620 MxGPU", false},
    // "73af  Navi 21 [Radeon RX 6900 XT]"
    AmdGpuModel{0x73af, "AMD Radeon RX 6900 XT", false},
    // "73bf  Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]"
    AmdGpuModel{0x73bf, "AMD Radeon RX 6800/6800 XT/6900 XT", false},
    // "73df  Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT]"
    AmdGpuModel{0x73df, "AMD Radeon RX 6700/6700 XT/6750 XT/6800M/6850M XT", false},
    // "73e1  Navi 23 WKS-XM [Radeon PRO W6600M]"
    AmdGpuModel{0x73e1, "AMD Radeon PRO W6600M", false},
    // "73e3  Navi 23 WKS-XL [Radeon PRO W6600]"
    AmdGpuModel{0x73e3, "AMD Radeon PRO W6600", false},
    // "73ef  Navi 23 [Radeon RX 6650 XT / 6700S / 6800S]"
    AmdGpuModel{0x73ef, "AMD Radeon RX 6650 XT/6700S/6800S", false},
    // "73f0  Navi 33 [Radeon RX 7600M XT]"
    AmdGpuModel{0x73f0, "AMD Radeon RX 7600M XT", false},
    // "73ff  Navi 23 [Radeon RX 6600/6600 XT/6600M]"
    AmdGpuModel{0x73ff, "AMD Radeon RX 6600/6600 XT/6600M", false},
    // "7408  Aldebaran/MI200 [Instinct MI250X]"
    AmdGpuModel{0x7408, "AMD Instinct MI250X", false},
    // "740c  Aldebaran/MI200 [Instinct MI250X/MI250]": one id per GCD; a package is two
    AmdGpuModel{0x740c, "AMD Instinct MI250X/MI250", false},
    // "740f  Aldebaran/MI200 [Instinct MI210]"
    AmdGpuModel{0x740f, "AMD Instinct MI210", false},
    // "7421  Navi 24 [Radeon PRO W6500M]"
    AmdGpuModel{0x7421, "AMD Radeon PRO W6500M", false},
    // "7422  Navi 24 [Radeon PRO W6400]"
    AmdGpuModel{0x7422, "AMD Radeon PRO W6400", false},
    // "7423  Navi 24 [Radeon PRO W6300/W6300M]"
    AmdGpuModel{0x7423, "AMD Radeon PRO W6300/W6300M", false},
    // "7424  Navi 24 [Radeon RX 6300]"
    AmdGpuModel{0x7424, "AMD Radeon RX 6300", false},
    // "743f  Navi 24 [Radeon RX 6400/6500 XT/6500M]"
    AmdGpuModel{0x743f, "AMD Radeon RX 6400/6500 XT/6500M", false},
    // "7448  Navi 31 [Radeon Pro W7900]"
    AmdGpuModel{0x7448, "AMD Radeon PRO W7900", false},
    // "7449  Navi 31 [Radeon Pro W7800 48GB]"
    AmdGpuModel{0x7449, "AMD Radeon PRO W7800 48GB", false},
    // "744a  Navi 31 [Radeon Pro W7900 Dual Slot]"
    AmdGpuModel{0x744a, "AMD Radeon PRO W7900 Dual Slot", false},
    // "744b  Navi 31 [Radeon Pro W7900D]"
    AmdGpuModel{0x744b, "AMD Radeon PRO W7900D", false},
    // "744c  Navi 31 [Radeon RX 7900 XT/7900 XTX/7900M]"
    AmdGpuModel{0x744c, "AMD Radeon RX 7900 XT/7900 XTX/7900M", false},
    // "745e  Navi 31 [Radeon Pro W7800]"
    AmdGpuModel{0x745e, "AMD Radeon PRO W7800", false},
    // "7460  Navi 32 GL-XL [AMD Radeon PRO V710]"
    AmdGpuModel{0x7460, "AMD Radeon PRO V710", false},
    // "7461  Navi 32 [AMD Radeon PRO V710]"
    AmdGpuModel{0x7461, "AMD Radeon PRO V710", false},
    // "7470  Navi 32 [Radeon PRO W7700]"
    AmdGpuModel{0x7470, "AMD Radeon PRO W7700", false},
    // "747e  Navi 32 [Radeon RX 7700 XT / 7800 XT]"
    AmdGpuModel{0x747e, "AMD Radeon RX 7700 XT/7800 XT", false},
    // "7480  Navi 33 [Radeon RX 7600/7600 XT/7600M XT/7600S/7700S / PRO W7600]"
    AmdGpuModel{0x7480, "AMD Radeon RX 7600/7600 XT/7600M XT/7600S/7700S/PRO W7600", false},
    // "7483  Navi 33 [Radeon RX 7600M/7600M XT]"
    AmdGpuModel{0x7483, "AMD Radeon RX 7600M/7600M XT", false},
    // "7489  Navi 33 [Radeon Pro W7500]"
    AmdGpuModel{0x7489, "AMD Radeon PRO W7500", false},
    // "7499  Navi 33 [Radeon RX 7400/7300/Pro W7400]"
    AmdGpuModel{0x7499, "AMD Radeon RX 7400/7300/PRO W7400", false},
    // "749f  Navi 33 [Radeon RX 7500]"
    AmdGpuModel{0x749f, "AMD Radeon RX 7500", false},
    // "74a0  Aqua Vanjaram [Instinct MI300A]": CPU and GPU share HBM3
    AmdGpuModel{0x74a0, "AMD Instinct MI300A", true},
    // "74a1  Aqua Vanjaram [Instinct MI300X]"
    AmdGpuModel{0x74a1, "AMD Instinct MI300X", false},
    // "74a2  Aqua Vanjaram [Instinct MI308X]"
    AmdGpuModel{0x74a2, "AMD Instinct MI308X", false},
    // "74a5  Aqua Vanjaram [Instinct MI325X]"
    AmdGpuModel{0x74a5, "AMD Instinct MI325X", false},
    // "74a9  Aqua Vanjaram [Instinct MI300X HF]"
    AmdGpuModel{0x74a9, "AMD Instinct MI300X HF", false},
    // "74b5  Aqua Vanjaram [Instinct MI300X VF]"
    AmdGpuModel{0x74b5, "AMD Instinct MI300X VF", false},
    // "74b9  Aqua Vanjaram [Instinct MI325X VF]"
    AmdGpuModel{0x74b9, "AMD Instinct MI325X VF", false},
    // "74bd  Aqua Vanjaram [Instinct MI300X HF]"
    AmdGpuModel{0x74bd, "AMD Instinct MI300X HF", false},
    // "7550  Navi 48 [Radeon RX 9070/9070 XT/9070 GRE]"
    AmdGpuModel{0x7550, "AMD Radeon RX 9070/9070 XT/9070 GRE", false},
    // "7551  Navi 48 [Radeon AI PRO R9700]"
    AmdGpuModel{0x7551, "AMD Radeon AI PRO R9700", false},
    // "7590  Navi 44 [Radeon RX 9050 / 9060 XT]"
    AmdGpuModel{0x7590, "AMD Radeon RX 9050/9060 XT", false},
    // "75a0  Aqua Vanjaram [Instinct MI350X]"
    AmdGpuModel{0x75a0, "AMD Instinct MI350X", false},
    // "75a3  Aqua Vanjaram [Instinct MI355X]"
    AmdGpuModel{0x75a3, "AMD Instinct MI355X", false},
    // "75a8  Aqua Vanjaram [Instinct MI350P]"
    AmdGpuModel{0x75a8, "AMD Instinct MI350P", false},
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
