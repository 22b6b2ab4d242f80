// The logical device: creation succeeds (with the queues asked for), resources
// can be described (buffers, images and what memory they would need), command
// buffers recorded; but there is no GPU behind it, so device memory cannot be
// allocated (VK_ERROR_OUT_OF_DEVICE_MEMORY) and submitted work loses the device
// (VK_ERROR_DEVICE_LOST, and every wait after it says so), which is how a
// program learns that nothing will run.
#include <new>

#include "vulkan/vulkan_icd_internal.h"

namespace hwaccel::vulkan {
namespace {

// A queue family index or count from a caller is bounded before use.
constexpr std::uint32_t kMaxQueueInfos = 64;

DeviceObj* device_of(VkDevice d) {
  return reinterpret_cast<DeviceObj*>(d);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice gpu, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks*, VkDevice* out) {
  if (!gpu || !info || !out) return VK_ERROR_INITIALIZATION_FAILED;
  const Device* model = reinterpret_cast<PhysicalDeviceObj*>(gpu)->model;
  if (!model) return VK_ERROR_INITIALIZATION_FAILED;
  if (info->enabledExtensionCount > 0 && !info->ppEnabledExtensionNames)
    return VK_ERROR_EXTENSION_NOT_PRESENT;
  if (info->queueCreateInfoCount > kMaxQueueInfos ||
      (info->queueCreateInfoCount > 0 && !info->pQueueCreateInfos))
    return VK_ERROR_INITIALIZATION_FAILED;
  const std::uint32_t families = queue_family_count(*model);
  for (std::uint32_t i = 0; i < info->queueCreateInfoCount; ++i) {
    const auto& q = info->pQueueCreateInfos[i];
    if (q.queueFamilyIndex >= families || q.queueCount == 0 ||
        q.queueCount > queue_family(*model, q.queueFamilyIndex).queueCount)
      return VK_ERROR_INITIALIZATION_FAILED;
  }
  // Extensions: only those the physical device lists.
  auto list = physical_device_function("vkEnumerateDeviceExtensionProperties");
  auto enumerate = reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(list);
  VkExtensionProperties known[32];
  std::uint32_t count = 32;
  enumerate(gpu, nullptr, &count, known);
  for (std::uint32_t i = 0; i < info->enabledExtensionCount && i < 4096; ++i) {
    std::string_view name = bounded_name(info->ppEnabledExtensionNames[i]);
    bool ok = false;
    for (std::uint32_t k = 0; k < count; ++k) ok |= name == known[k].extensionName;
    if (!ok) return VK_ERROR_EXTENSION_NOT_PRESENT;
  }
  if (info->enabledExtensionCount >= 4096) return VK_ERROR_EXTENSION_NOT_PRESENT;
  auto* device = new (std::nothrow) DeviceObj;
  if (!device) return VK_ERROR_OUT_OF_HOST_MEMORY;
  device->model = model;
  try {
    for (std::uint32_t i = 0; i < info->queueCreateInfoCount; ++i) {
      const auto& q = info->pQueueCreateInfos[i];
      for (std::uint32_t n = 0; n < q.queueCount; ++n) {
        auto queue = std::make_unique<QueueObj>();
        set_loader_magic_value(queue.get());
        queue->device = device;
        queue->family = q.queueFamilyIndex;
        queue->index = n;
        device->queues.push_back(std::move(queue));
      }
    }
  } catch (...) {
    delete device;
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  set_loader_magic_value(device);
  *out = reinterpret_cast<VkDevice>(device);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks*) {
  delete device_of(device);
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue(VkDevice device, std::uint32_t family,
                                          std::uint32_t index, VkQueue* out) {
  if (!out) return;
  *out = nullptr;
  if (!device) return;
  for (auto& q : device_of(device)->queues)
    if (q->family == family && q->index == index) *out = reinterpret_cast<VkQueue>(q.get());
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* info,
                                           VkQueue* out) {
  if (!info) {
    if (out) *out = nullptr;
    return;
  }
  GetDeviceQueue(device, info->queueFamilyIndex, info->queueIndex, out);
}

VkResult lose(VkQueue queue) {
  if (queue) reinterpret_cast<QueueObj*>(queue)->device->lost = true;
  return VK_ERROR_DEVICE_LOST;
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, std::uint32_t, const VkSubmitInfo*,
                                           VkFence) {
  return lose(queue);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue queue, std::uint32_t, const VkSubmitInfo2*,
                                            VkFence) {
  return lose(queue);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueBindSparse(VkQueue queue, std::uint32_t,
                                               const VkBindSparseInfo*, VkFence) {
  return lose(queue);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueWaitIdle(VkQueue queue) {
  return queue && reinterpret_cast<QueueObj*>(queue)->device->lost ? VK_ERROR_DEVICE_LOST
                                                                   : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL DeviceWaitIdle(VkDevice device) {
  return device && device_of(device)->lost ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

// Nothing is ever submitted, so nothing signals: a wait ends at once, lost or timed out.
VKAPI_ATTR VkResult VKAPI_CALL WaitForFences(VkDevice device, std::uint32_t, const VkFence*,
                                             VkBool32, std::uint64_t) {
  return device && device_of(device)->lost ? VK_ERROR_DEVICE_LOST : VK_TIMEOUT;
}

VKAPI_ATTR VkResult VKAPI_CALL GetFenceStatus(VkDevice device, VkFence) {
  return device && device_of(device)->lost ? VK_ERROR_DEVICE_LOST : VK_NOT_READY;
}

VKAPI_ATTR VkResult VKAPI_CALL ResetFences(VkDevice, std::uint32_t, const VkFence*) {
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateMemory(VkDevice, const VkMemoryAllocateInfo*,
                                              const VkAllocationCallbacks*, VkDeviceMemory* out) {
  if (out) *out = VK_NULL_HANDLE;
  return VK_ERROR_OUT_OF_DEVICE_MEMORY;  // no device memory to give
}

VKAPI_ATTR void VKAPI_CALL FreeMemory(VkDevice, VkDeviceMemory, const VkAllocationCallbacks*) {}

// Non-dispatchable objects that hold nothing: a ResourceObj each, so handles
// are distinct and destroying one frees it.
template <typename Handle>
VkResult make(VkDeviceSize size, Handle* out) {
  if (!out) return VK_ERROR_INITIALIZATION_FAILED;
  auto* r = new (std::nothrow) ResourceObj;
  if (!r) return VK_ERROR_OUT_OF_HOST_MEMORY;
  r->size = size;
  *out = reinterpret_cast<Handle>(r);
  return VK_SUCCESS;
}

template <typename Handle>
void drop(Handle h) {
  delete reinterpret_cast<ResourceObj*>(h);
}

VkDeviceSize size_of(const void* h) {
  return h ? static_cast<const ResourceObj*>(h)->size : 0;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateBuffer(VkDevice, const VkBufferCreateInfo* info,
                                            const VkAllocationCallbacks*, VkBuffer* out) {
  if (!info) return VK_ERROR_INITIALIZATION_FAILED;
  return make(info->size, out);
}

VKAPI_ATTR void VKAPI_CALL DestroyBuffer(VkDevice, VkBuffer b, const VkAllocationCallbacks*) {
  drop(b);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateImage(VkDevice, const VkImageCreateInfo* info,
                                           const VkAllocationCallbacks*, VkImage* out) {
  if (!info) return VK_ERROR_INITIALIZATION_FAILED;
  // 16 bytes a texel covers every format this driver lists; bounded against overflow.
  VkDeviceSize texels = VkDeviceSize(info->extent.width % 65536) * (info->extent.height % 65536) *
                        (info->extent.depth % 65536 ? info->extent.depth % 65536 : 1);
  VkDeviceSize layers = info->arrayLayers % 4096 ? info->arrayLayers % 4096 : 1;
  return make(
      texels > (VkDeviceSize{1} << 40) / layers ? VkDeviceSize{1} << 44 : texels * layers * 16 * 2,
      out);
}

VKAPI_ATTR void VKAPI_CALL DestroyImage(VkDevice, VkImage i, const VkAllocationCallbacks*) {
  drop(i);
}

void requirements(const Device& d, VkDeviceSize size, VkMemoryRequirements& r) {
  r.alignment = 256;
  r.size = (size + 255) / 256 * 256;
  if (r.size < size) r.size = size;  // wrapped: as asked
  r.memoryTypeBits = (1u << memory_properties(d).memoryTypeCount) - 1;
}

VKAPI_ATTR void VKAPI_CALL GetBufferMemoryRequirements(VkDevice device, VkBuffer b,
                                                       VkMemoryRequirements* out) {
  if (device && out) requirements(*device_of(device)->model, size_of(b), *out);
}

VKAPI_ATTR void VKAPI_CALL GetImageMemoryRequirements(VkDevice device, VkImage i,
                                                      VkMemoryRequirements* out) {
  if (device && out) requirements(*device_of(device)->model, size_of(i), *out);
}

VKAPI_ATTR void VKAPI_CALL GetBufferMemoryRequirements2(VkDevice device,
                                                        const VkBufferMemoryRequirementsInfo2* info,
                                                        VkMemoryRequirements2* out) {
  if (device && info && out)
    requirements(*device_of(device)->model, size_of(info->buffer), out->memoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL GetImageMemoryRequirements2(VkDevice device,
                                                       const VkImageMemoryRequirementsInfo2* info,
                                                       VkMemoryRequirements2* out) {
  if (device && info && out)
    requirements(*device_of(device)->model, size_of(info->image), out->memoryRequirements);
}

#define HWSIM_PLAIN(Type, Info, Create, Destroy)                                             \
  VKAPI_ATTR VkResult VKAPI_CALL Create(VkDevice, const Info*, const VkAllocationCallbacks*, \
                                        Type* out) {                                         \
    return make(0, out);                                                                     \
  }                                                                                          \
  VKAPI_ATTR void VKAPI_CALL Destroy(VkDevice, Type h, const VkAllocationCallbacks*) {       \
    drop(h);                                                                                 \
  }
HWSIM_PLAIN(VkFence, VkFenceCreateInfo, CreateFence, DestroyFence)
HWSIM_PLAIN(VkSemaphore, VkSemaphoreCreateInfo, CreateSemaphore, DestroySemaphore)
HWSIM_PLAIN(VkCommandPool, VkCommandPoolCreateInfo, CreateCommandPool, DestroyCommandPool)
HWSIM_PLAIN(VkShaderModule, VkShaderModuleCreateInfo, CreateShaderModule, DestroyShaderModule)
#undef HWSIM_PLAIN

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandPool(VkDevice, VkCommandPool, VkCommandPoolResetFlags) {
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice,
                                                      const VkCommandBufferAllocateInfo* info,
                                                      VkCommandBuffer* out) {
  if (!info || !out || info->commandBufferCount > 4096) return VK_ERROR_OUT_OF_HOST_MEMORY;
  for (std::uint32_t i = 0; i < info->commandBufferCount; ++i) {
    auto* cb = new (std::nothrow) CommandBufferObj;
    if (!cb) {
      for (std::uint32_t j = 0; j < i; ++j) delete reinterpret_cast<CommandBufferObj*>(out[j]);
      for (std::uint32_t j = 0; j < info->commandBufferCount; ++j) out[j] = nullptr;
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    set_loader_magic_value(cb);
    out[i] = reinterpret_cast<VkCommandBuffer>(cb);
  }
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice, VkCommandPool, std::uint32_t count,
                                              const VkCommandBuffer* buffers) {
  if (!buffers) return;
  for (std::uint32_t i = 0; i < count && i < 4096; ++i)
    delete reinterpret_cast<CommandBufferObj*>(buffers[i]);
}

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer,
                                                  const VkCommandBufferBeginInfo*) {
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL EndCommandBuffer(VkCommandBuffer) {
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandBuffer(VkCommandBuffer, VkCommandBufferResetFlags) {
  return VK_SUCCESS;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice, const char* name) {
  return device_function(bounded_name(name));
}

struct Named {
  const char* name;
  PFN_vkVoidFunction fn;
};
#define HWSIM_VK(fn) \
  { "vk" #fn, reinterpret_cast<PFN_vkVoidFunction>(fn) }
const Named kDevice[] = {
    HWSIM_VK(GetDeviceProcAddr),
    HWSIM_VK(CreateDevice),
    HWSIM_VK(DestroyDevice),
    HWSIM_VK(GetDeviceQueue),
    HWSIM_VK(GetDeviceQueue2),
    HWSIM_VK(QueueSubmit),
    HWSIM_VK(QueueSubmit2),
    {"vkQueueSubmit2KHR", reinterpret_cast<PFN_vkVoidFunction>(QueueSubmit2)},
    HWSIM_VK(QueueBindSparse),
    HWSIM_VK(QueueWaitIdle),
    HWSIM_VK(DeviceWaitIdle),
    HWSIM_VK(WaitForFences),
    HWSIM_VK(GetFenceStatus),
    HWSIM_VK(ResetFences),
    HWSIM_VK(AllocateMemory),
    HWSIM_VK(FreeMemory),
    HWSIM_VK(CreateBuffer),
    HWSIM_VK(DestroyBuffer),
    HWSIM_VK(CreateImage),
    HWSIM_VK(DestroyImage),
    HWSIM_VK(GetBufferMemoryRequirements),
    HWSIM_VK(GetImageMemoryRequirements),
    HWSIM_VK(GetBufferMemoryRequirements2),
    HWSIM_VK(GetImageMemoryRequirements2),
    HWSIM_VK(CreateFence),
    HWSIM_VK(DestroyFence),
    HWSIM_VK(CreateSemaphore),
    HWSIM_VK(DestroySemaphore),
    HWSIM_VK(CreateCommandPool),
    HWSIM_VK(DestroyCommandPool),
    HWSIM_VK(ResetCommandPool),
    HWSIM_VK(CreateShaderModule),
    HWSIM_VK(DestroyShaderModule),
    HWSIM_VK(AllocateCommandBuffers),
    HWSIM_VK(FreeCommandBuffers),
    HWSIM_VK(BeginCommandBuffer),
    HWSIM_VK(EndCommandBuffer),
    HWSIM_VK(ResetCommandBuffer),
};
#undef HWSIM_VK

}  // namespace

PFN_vkVoidFunction device_function(std::string_view name) {
  for (const auto& f : kDevice)
    if (name == f.name) return f.fn;
  return nullptr;
}

}  // namespace hwaccel::vulkan
