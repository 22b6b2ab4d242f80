// libFuzzer target: vulkaninfo --summary, its failure messages, and the UUID helpers.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/vulkaninfo_summary.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto summary = hwaccel::parse_vulkaninfo_summary(text);
  for (const auto& d : summary.devices) {
    (void)hwaccel::is_software_vulkan_device(d);
    (void)hwaccel::vulkan_device_type_text(d.type);
    if (d.device_uuid) {
      (void)hwaccel::format_uuid(*d.device_uuid);
      (void)hwaccel::amd_vulkan_uuid_pci_address(*d.device_uuid);
    }
  }
  (void)hwaccel::known_vulkaninfo_error(text);
  (void)hwaccel::vulkan_api_version_text(text);
  (void)hwaccel::vulkan_driver_version_text(text, 0x10de);
  (void)hwaccel::parse_vulkan_uuid(text);
  return 0;
}
