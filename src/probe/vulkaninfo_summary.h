// `vulkaninfo --summary`: the "Devices:" section, one block per physical device.
//
//   Devices:
//   ========
//   GPU0:
//   	apiVersion         = 1.3.260                       (1.2.x SDKs: "4202641 (1.2.145)")
//   	driverVersion      = 2.0.279                       (1.2.x: "1889665088 (0x70a28040)")
//   	vendorID           = 0x1002
//   	deviceID           = 0x73ff
//   	deviceType         = PHYSICAL_DEVICE_TYPE_DISCRETE_GPU
//   	deviceName         = AMD Radeon RX 6600 XT
//   	driverID           = DRIVER_ID_AMD_PROPRIETARY     (1.2 drivers and newer)
//   	driverName         = AMD proprietary driver
//   	driverInfo         = (AMD proprietary shader compiler)
//   	conformanceVersion = 1.3.3.1
//   	deviceUUID         = 00000000-0a00-0000-0000-000000000000   (newer SDKs only)
//   	driverUUID         = 414d442d-4c49-4e55-582d-445256000000
//
// Everything before "Devices:" (instance version, extensions, layers, loader
// warnings, "'DISPLAY' environment variable not set") is skipped.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/model/reason.h"

namespace hwaccel {

struct VulkanPhysicalDevice {
  int index = 0;     // GPU<n>
  std::string name;  // deviceName
  std::string type;  // deviceType: "PHYSICAL_DEVICE_TYPE_DISCRETE_GPU"
  std::optional<std::uint32_t> vendor_id;
  std::optional<std::uint32_t> device_id;
  std::string api_version;     // "1.3.260", decoded from the 1.2.x integer form
  std::string driver_version;  // decoded as printed ("2.0.279", "535.154.5.0")
  std::string driver_id;       // "DRIVER_ID_MESA_RADV"; "" when not printed
  std::string driver_name;     // "radv"
  std::string driver_info;     // "Mesa 25.3.5-arch1.1"
  std::optional<std::array<std::uint8_t, 16>> device_uuid;
};

struct VulkanSummary {
  bool devices_section = false;  // a "Devices:" header was seen
  std::vector<VulkanPhysicalDevice> devices;
  std::vector<std::string> problems;  // lines that did not fit and why
};

VulkanSummary parse_vulkaninfo_summary(std::string_view text);

// "1.3.260" as is; "4202641 (1.2.145)" -> "1.2.145"; a bare "4206828" decoded as
// VK_API_VERSION (7.10.12 bits). "" for anything else.
std::string vulkan_api_version_text(std::string_view value);

// driverVersion as printed; a bare integer (or "N (0x...)") decoded with the
// vendor's packing: NVIDIA 10.8.8.6 bits, everyone else VK_MAKE_VERSION's 10.10.12.
std::string vulkan_driver_version_text(std::string_view value, std::optional<std::uint32_t> vendor);

// "00000000-0c00-0000-0000-000000000000" -> 16 bytes; nullopt unless 32 hex digits.
std::optional<std::array<std::uint8_t, 16>> parse_vulkan_uuid(std::string_view text);
std::string format_uuid(const std::array<std::uint8_t, 16>& uuid);

// llvmpipe, lavapipe, SwiftShader: PHYSICAL_DEVICE_TYPE_CPU, or a software driver id or name.
bool is_software_vulkan_device(const VulkanPhysicalDevice& device);

// AMD's drivers (RADV, AMDVLK, the proprietary one) build deviceUUID from the PCI
// address: four little-endian 32-bit words domain, bus, device, function
// (Mesa ac_compute_device_uuid). "0000:0c:00.0", or nullopt when the words do
// not form an address.
std::optional<std::string> amd_vulkan_uuid_pci_address(const std::array<std::uint8_t, 16>& uuid);

// A failed run's output -> why: "Found no drivers" / ERROR_INCOMPATIBLE_DRIVER is
// driver-not-found; other vkCreateInstance / enumeration errors are probe-failed
// with the line that says so. nullopt when no known failure is in the text.
std::optional<Reason> known_vulkaninfo_error(std::string_view output);

// "PHYSICAL_DEVICE_TYPE_DISCRETE_GPU" -> "discrete GPU"; unknown values as printed.
std::string vulkan_device_type_text(std::string_view type);

}  // namespace hwaccel
