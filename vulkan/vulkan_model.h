// What the snapshot-backed Vulkan driver (libhwsim_vulkan.so, docs/hwsim.md
// "Vulkan") answers from: hwaccel's own detection replayed over the snapshot,
// so the devices are those `hwaccel detect --host` lists for the vulkan backend,
// in its order, with the recorded `vulkaninfo --summary`'s driver fields where
// one was recorded. Memory heaps come from the same detection: a discrete GPU's
// memory from the entry of another backend on the same physical device (CUDA,
// ROCm, oneAPI), else the SKU catalogue; an integrated GPU's and a CPU renderer's
// from the host's memory. Built once per process; the entry points read it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/probe/vulkaninfo_summary.h"
#include "src/registry/detection.h"

namespace hwaccel::vulkan {

// VkPhysicalDeviceType's values (the Vulkan specification).
enum class DeviceKind : std::uint32_t {
  other = 0,
  integrated = 1,
  discrete = 2,
  virtual_gpu = 3,
  cpu = 4
};

struct Heap {
  std::uint64_t size = 0;
  bool device_local = false;
};

struct Device {
  std::string name;
  std::uint32_t vendor_id = 0, device_id = 0;
  DeviceKind kind = DeviceKind::discrete;
  std::uint32_t api_version = 0;     // VK_MAKE_API_VERSION
  std::uint32_t driver_version = 0;  // packed as vulkaninfo decodes it for the vendor
  std::uint32_t driver_id = 0;       // VkDriverId; 0 when not recorded
  std::string driver_name, driver_info;
  std::array<std::uint8_t, 16> device_uuid{}, driver_uuid{};
  std::vector<Heap> heaps;  // heap 0 is the device's own (device-local)
  std::string memory_source;
};

struct Model {
  bool has_driver = false;  // false: vkCreateInstance fails as with no driver
  std::string why;          // when there is none
  std::vector<Device> devices;
};

// Bounds on what is taken from the snapshot: a longer name is cut (Vulkan's
// deviceName holds 255 bytes), more devices are left out.
inline constexpr std::size_t kMaxDevices = 64;

// The model of a host from its detection and its recorded `vulkaninfo --summary`
// (nullptr when none was recorded). Pure: the tests build it from fixtures.
Model make_model(const Detection& detection, const VulkanSummary* summary);

// The model of this process: the snapshot at $HWSIM_VULKAN_SNAPSHOT, else
// $HWSIM_ROOT/.hwsim/snapshot.yaml (hwsim run sets HWSIM_ROOT), else
// /.hwsim/snapshot.yaml.
Model load_model();

// "1.3.289" -> VK_MAKE_API_VERSION(0, 1, 3, 289); nullopt unless 2-3 numbers in range.
std::optional<std::uint32_t> parse_api_version(std::string_view text);

// The integer vulkaninfo prints as `text` (NVIDIA's driver: 10.8.8.6 bits, else
// 10.10.12); nullopt when `text` is not such a dotted version. Vulkan-Tools
// 1.3.239 decodes NVIDIA's packing only for NVIDIA's own driver (driverID), so
// `nvidia` is that, or an unknown driver on an NVIDIA GPU.
std::optional<std::uint32_t> pack_driver_version(std::string_view text, bool nvidia);

// "DRIVER_ID_MESA_RADV" -> VK_DRIVER_ID_MESA_RADV (3); 0 when unknown.
std::uint32_t driver_id_of(std::string_view name);

}  // namespace hwaccel::vulkan
