// The driver's objects and the tables its entry points are found in. Dispatchable
// handles (instance, physical device, device, queue, command buffer) start with
// the loader's dispatch slot (vk_icd.h: the loader writes its table pointer there);
// non-dispatchable ones are pointers to small structs of ours.
#pragma once

#include <vulkan/vk_icd.h>
#include <vulkan/vulkan_core.h>

#include <atomic>
#include <memory>
#include <string_view>
#include <vector>

#include "vulkan/vulkan_model.h"

namespace hwaccel::vulkan {

struct PhysicalDeviceObj {
  VK_LOADER_DATA loader{};
  const Device* model = nullptr;
};

struct InstanceObj {
  VK_LOADER_DATA loader{};
  std::vector<std::unique_ptr<PhysicalDeviceObj>> gpus;
};

struct QueueObj {
  VK_LOADER_DATA loader{};
  struct DeviceObj* device = nullptr;
  std::uint32_t family = 0, index = 0;
};

struct DeviceObj {
  VK_LOADER_DATA loader{};
  const Device* model = nullptr;
  std::vector<std::unique_ptr<QueueObj>> queues;
  // Work was submitted: there is no GPU to run it, so the device is lost from then on.
  std::atomic<bool> lost{false};
};

struct CommandBufferObj {
  VK_LOADER_DATA loader{};
};

// What a buffer or an image needs in memory (vkGet*MemoryRequirements).
struct ResourceObj {
  VkDeviceSize size = 0;
};

// The process's model, built once (vulkan_model.h); never throws.
const Model& the_model();

// Queue families: the number and each one's properties.
std::uint32_t queue_family_count(const Device& d);
VkQueueFamilyProperties queue_family(const Device& d, std::uint32_t i);

// Memory types of a device, for vkGetPhysicalDeviceMemoryProperties and the
// memoryTypeBits of resources.
VkPhysicalDeviceMemoryProperties memory_properties(const Device& d);

// The entry points by name (nullptr when not ours): instance- and physical-device
// level, then device level.
PFN_vkVoidFunction instance_function(std::string_view name);
PFN_vkVoidFunction physical_device_function(std::string_view name);
PFN_vkVoidFunction device_function(std::string_view name);

// Names are at most this long (the longest Vulkan command is under 100 bytes); a
// longer or unterminated one is not looked up.
inline constexpr std::size_t kMaxNameLength = 256;
std::string_view bounded_name(const char* name);

// Copies `text` into a fixed char array, cut to fit, NUL-terminated.
template <std::size_t N>
void copy_name(char (&out)[N], std::string_view text) {
  std::size_t n = text.size() < N - 1 ? text.size() : N - 1;
  for (std::size_t i = 0; i < n; ++i) out[i] = text[i];
  out[n] = '\0';
}

}  // namespace hwaccel::vulkan
