// libFuzzer target: the simulated Vulkan driver's model (vulkan/vulkan_model.h)
// from a `vulkaninfo --summary` text: each parsed device becomes a detected entry
// too, so the names, versions and ids the driver would answer all come from the
// input; and the version and driver-id readers on the raw text.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/vulkaninfo_summary.h"
#include "vulkan/vulkan_model.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  hwaccel::VulkanSummary summary = hwaccel::parse_vulkaninfo_summary(text);
  hwaccel::Detection detection;
  for (const auto& d : summary.devices) {
    hwaccel::Entry e;
    e.backend = "vulkan";
    e.index = d.index;
    e.name = d.name;
    e.type =
        hwaccel::is_software_vulkan_device(d) ? hwaccel::DeviceType::cpu : hwaccel::DeviceType::gpu;
    if (d.vendor_id && *d.vendor_id <= 0xffff) e.pci_vendor_id = std::uint16_t(*d.vendor_id);
    if (d.device_id && *d.device_id <= 0xffff) e.pci_device_id = std::uint16_t(*d.device_id);
    e.compute_class = "vulkan-" + d.api_version;
    e.physical_id = "vulkan:" + std::to_string(d.index);
    detection.entries.push_back(std::move(e));
  }
  hwaccel::vulkan::Model model = hwaccel::vulkan::make_model(detection, &summary);
  if (model.devices.size() > hwaccel::vulkan::kMaxDevices) __builtin_trap();
  for (const auto& d : model.devices)
    if (d.name.size() > 255 || d.driver_name.size() > 255 || d.heaps.empty()) __builtin_trap();
  (void)hwaccel::vulkan::parse_api_version(text);
  (void)hwaccel::vulkan::pack_driver_version(text, true);
  (void)hwaccel::vulkan::pack_driver_version(text, false);
  (void)hwaccel::vulkan::driver_id_of(text);
  return 0;
}
