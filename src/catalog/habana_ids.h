// Intel Gaudi (Habana Labs, PCI vendor 0x1da3): PCI device ids and hl-smi
// product names -> generation.
//
// Device ids: the habanalabs driver's pci_ids (PCI_IDS_GAUDI 0x1000,
// PCI_IDS_GAUDI_SEC 0x1010, PCI_IDS_GAUDI2 0x1020; linux drivers/accel/habanalabs)
// and Habana's user-space headers (PCI_IDS_GAUDI2_HL_288 0x1021, PCI_IDS_GAUDI3
// 0x1060, PCI_IDS_GAUDI3_HL_338 0x1063). Product names as hl-smi prints them:
// HL-205 (Gaudi), HL-225 (Gaudi 2 OAM), HL-288 (Gaudi 2 PCIe), HL-325L (Gaudi 3
// OAM), HL-338 (Gaudi 3 PCIe). HBM: Gaudi 2 96 GB, Gaudi 3 128 GB
// (shared/docs/sku-facts.md; hl-smi reports 98304 and 131072 MiB).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hwaccel {

inline constexpr std::uint16_t kHabanaPciVendor = 0x1da3;

struct GaudiGeneration {
  std::string_view name;           // "Intel Gaudi 3"
  std::string_view compute_class;  // "gaudi3"
};

std::optional<GaudiGeneration> gaudi_generation_of_pci(std::uint16_t device_id);
// "HL-325L" -> Gaudi 3; by the model number's first digit after "HL-".
std::optional<GaudiGeneration> gaudi_generation_of_product(std::string_view product);

}  // namespace hwaccel
