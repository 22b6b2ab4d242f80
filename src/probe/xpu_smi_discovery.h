// `xpu-smi discovery` (Intel XPU Manager): one table row group per device.
//
//   +-----------+--------------------------------------------------------------------------------------+
//   | Device ID | Device Information |
//   +-----------+--------------------------------------------------------------------------------------+
//   | 0         | Device Name: Intel(R) Data Center GPU Max 1550 | |           | Vendor Name:
//   Intel(R) Corporation                                                    | |           | SOC
//   UUID: 00000000-0000-0029-0000-002f0bd58086                                       | | | PCI BDF
//   Address: 0000:29:00.0                                                        | |           |
//   DRM Device: /dev/dri/card1                                                           | | |
//   Function Type: physical                                                              |
//   +-----------+--------------------------------------------------------------------------------------+
//
// Older releases (1.2) also print "Device Type: GPU", "PCI Device ID: 0x56c0" and "UUID:".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct XpuSmiDevice {
  int id = 0;
  std::string name;           // "Intel(R) Data Center GPU Max 1550"
  std::string pci_address;    // "0000:29:00.0", normalised to lower case
  std::string drm_device;     // "/dev/dri/card1"
  std::string uuid;           // SOC UUID or UUID
  std::string function_type;  // "physical", "virtual"
};

struct XpuSmiDiscovery {
  std::vector<XpuSmiDevice> devices;
  std::vector<std::string> problems;
};

XpuSmiDiscovery parse_xpu_smi_discovery(std::string_view text);

// "Intel(R) Data Center GPU Max 1550" -> "Intel Data Center GPU Max 1550".
std::string without_trademarks(std::string_view name);

}  // namespace hwaccel
