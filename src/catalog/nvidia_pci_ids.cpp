#include "src/catalog/nvidia_pci_ids.h"

#include <array>
#include <cstdio>
#include <utility>

namespace hwaccel {
namespace {

// Sources (names as pci.ids writes them in brackets, with "NVIDIA " in front):
//   [IDS]  pci.ids 2023.04.10 (Debian 12 package pci.ids 0.0~2023.04.11-1), vendor 10de.
//   [CAP]  ../shared/real-captures nvidia-smi -q "Device Id" (0xDDDD10DE) and Product Name.
//   [LSPCI] public `lspci -nn` output of the machine (ids newer than [IDS]).
// Sorted by id. NVSwitches (class 0x0680 bridges) are not GPUs and are not listed.
constexpr std::array<std::pair<std::uint16_t, std::string_view>, 25> kNames = {{
    {0x1db4, "NVIDIA Tesla V100 PCIe 16GB"},  // [IDS]
    {0x1db6, "NVIDIA Tesla V100 PCIe 32GB"},  // [IDS]
    {0x1eb8, "NVIDIA Tesla T4"},              // [IDS]
    {0x20b0, "NVIDIA A100 SXM4 40GB"},        // [IDS]
    {0x20b2, "NVIDIA A100 SXM4 80GB"},        // [IDS]
    {0x20b5, "NVIDIA A100 PCIe 80GB"},        // [IDS]
    {0x20b7, "NVIDIA A30 PCIe"},              // [IDS]
    {0x20f1, "NVIDIA A100 PCIe 40GB"},        // [IDS]
    {0x2204, "NVIDIA GeForce RTX 3090"},      // [IDS]
    {0x2236, "NVIDIA A10"},                   // [IDS]
    {0x2237, "NVIDIA A10G"},                  // [IDS]
    {0x2322, "NVIDIA H800 PCIe"},             // [IDS]
    {0x2324, "NVIDIA H800"},                  // [IDS]
    {0x2330, "NVIDIA H100 SXM5 80GB"},        // [IDS]; [CAP] H100 80GB HBM3 0x2330
    {0x2331, "NVIDIA H100 PCIe"},             // [IDS]
    {0x2335, "NVIDIA H200"},              // [CAP] H200 0x2335 ("H200 SXM 141GB" in newer pci.ids)
    {0x2342, "NVIDIA GH200 480GB"},       // [LSPCI] "GH100 [GH200 480GB] [10de:2342]", class 0302
    {0x2684, "NVIDIA GeForce RTX 4090"},  // [IDS]
    {0x26b5, "NVIDIA L40"},               // [IDS]
    {0x26b9, "NVIDIA L40S"},              // [CAP] L40S 0x26B9
    {0x2702, "NVIDIA GeForce RTX 4080 SUPER"},  // [CAP] RTX 4080 SUPER 0x2702
    {0x2704, "NVIDIA GeForce RTX 4080"},        // [IDS]
    {0x2782, "NVIDIA GeForce RTX 4070 Ti"},     // [IDS]
    {0x27b8, "NVIDIA L4"},                      // [IDS]
    {0x2e12, "NVIDIA GB10"},  // [LSPCI] DGX Spark "Device [10de:2e12]", class 0300
}};

}  // namespace

std::optional<std::string_view> nvidia_pci_product_name(std::uint16_t device_id) {
  for (const auto& [id, name] : kNames)
    if (id == device_id) return name;
  return std::nullopt;
}

std::string nvidia_pci_device_name(std::uint16_t device_id) {
  if (auto known = nvidia_pci_product_name(device_id)) return std::string(*known);
  char buf[32];
  std::snprintf(buf, sizeof buf, "NVIDIA device 0x%04x", unsigned(device_id));
  return buf;
}

}  // namespace hwaccel
