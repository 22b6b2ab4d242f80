// NVIDIA PCI device ids -> product names, for GPUs that are on the bus but that
// no working driver describes (nvidia-smi missing or failing). A small table of
// data-centre and common desktop parts; each id is checked against pci.ids or a
// real capture (see the .cpp). Unknown ids get a plain "NVIDIA device 0x1234".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hwaccel {

// The product name for an NVIDIA PCI device id ("NVIDIA H100 SXM5 80GB"); nullopt
// when the table does not know the id.
std::optional<std::string_view> nvidia_pci_product_name(std::uint16_t device_id);

// As above, or "NVIDIA device 0x1234" (four lowercase hex digits) when unknown.
std::string nvidia_pci_device_name(std::uint16_t device_id);

}  // namespace hwaccel
