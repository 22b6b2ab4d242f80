// `system_profiler SPDisplaysDataType -json`: the Macs' graphics processors.
//
// Apple silicon, macOS 13 and later:
//   {"SPDisplaysDataType" : [ { "_name" : "Apple M3 Pro",
//       "spdisplays_mtlgpufamilysupport" : "spdisplays_metal3",
//       "spdisplays_ndrvs" : [ ...displays... ], "spdisplays_vendor" : "sppci_vendor_Apple",
//       "sppci_bus" : "spdisplays_builtin", "sppci_cores" : "18",
//       "sppci_device_type" : "spdisplays_gpu", "sppci_model" : "Apple M3 Pro" } ] }
// macOS 11 on an M1: "_name" : "kHW_AppleM1Item",
//   "spdisplays_metalfamily" : "spdisplays_mtlgpufamilyapple7".
// Intel Macs: "spdisplays_metal" : "spdisplays_metalfeaturesetfamily13" (or
//   "spdisplays_mtlgpufamilysupport"), "spdisplays_vram" : "8 GB", "spdisplays_device-id"
//   : "0x7340", "spdisplays_vendor" : "sppci_vendor_amd", "sppci_bus" : "spdisplays_pcie_device".
// Values are localisation keys, not text: they are turned into words here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct MacGpu {
  std::string model;         // "Apple M3 Max", "AMD Radeon Pro 5500M"
  std::optional<int> cores;  // sppci_cores
  std::string metal;         // "Metal 3", "Apple 7", "Metal feature set family 13"; "" unknown
  std::string vendor;        // "Apple", "AMD", "Intel", "NVIDIA", or as printed
  bool builtin = false;      // sppci_bus spdisplays_builtin
  std::optional<std::uint64_t> vram_bytes;  // discrete GPUs of Intel Macs
  std::optional<std::uint16_t> device_id;   // spdisplays_device-id
};

struct MacDisplays {
  bool valid_json = false;
  std::vector<MacGpu> gpus;
  std::vector<std::string> problems;
};

MacDisplays parse_sp_displays_json(std::string_view text);

// `sysctl -n hw.memsize` ("137438953472\n"); nullopt unless one whole number.
std::optional<std::uint64_t> parse_sysctl_u64(std::string_view text);

// "spdisplays_metal3" -> "Metal 3"; "spdisplays_mtlgpufamilyapple7" -> "Apple 7"; others
// stripped of their prefix.
std::string metal_family_text(std::string_view key);

// "Metal 3" -> "metal3", "Apple 7" -> "apple7": the compute_class of a Metal GPU.
std::string metal_compute_class(std::string_view family);

}  // namespace hwaccel
