// Pure parsers of the sysfs formats the ROCm probe reads under
// /sys/class/drm/cardN/device (amdgpu's attributes and the PCI device's own).
// Total functions: any text gives an answer (empty at worst), never a throw.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

// "card0", "card12": a DRM device. Not "card0-DP-1" (a connector), "renderD128"
// (a render node) or "version".
bool is_drm_card_name(std::string_view name);

// "8573157376\n" -> 8573157376 (mem_info_vram_total and friends: decimal bytes).
std::optional<std::uint64_t> parse_sysfs_bytes(std::string_view text);

// device/uevent: "DRIVER=amdgpu\nPCI_ID=1002:687F\nPCI_SLOT_NAME=0000:09:00.0\n...".
struct DrmDeviceUevent {
  std::string driver;  // "" when the line is missing (no driver bound)
  std::optional<std::uint16_t> vendor;
  std::optional<std::uint16_t> device;
  std::string slot_name;  // lowercase "0000:09:00.0"; "" when missing or malformed
};
DrmDeviceUevent parse_drm_device_uevent(std::string_view text);

// A PCI address "dddd:bb:dd.f" (hex, any case) -> lowercase; nullopt otherwise.
// "0000:C1:00.0" -> "0000:c1:00.0".
std::optional<std::string> normalize_pci_address(std::string_view text);

struct PciAddressParts {
  std::uint32_t domain = 0;
  std::uint8_t bus = 0;
  std::uint8_t device = 0;          // 0..31
  std::uint8_t function = 0;        // 0..7
  std::uint16_t devfn_id() const {  // the kernel's pci_dev_id(): bus << 8 | devfn
    return std::uint16_t(bus << 8 | device << 3 | function);
  }
};
std::optional<PciAddressParts> parse_pci_address(std::string_view text);

// The last component of a link target: "../../../0000:c1:00.0" -> "0000:c1:00.0",
// "../../../../bus/pci/drivers/amdgpu" -> "amdgpu".
std::string link_basename(std::string_view target);

// current_compute_partition ("SPX", "CPX") / current_memory_partition ("NPS1"):
// trimmed, upper-cased; "" unless it is 2..8 letters and digits.
std::string parse_partition_mode(std::string_view text);

// The render node among a DRM device folder's names ("card0", "renderD128") -> 128.
std::optional<int> render_minor_from_names(const std::vector<std::string>& names);

}  // namespace hwaccel
