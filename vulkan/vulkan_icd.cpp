// The loader-driver interface (Vulkan-Loader's LoaderDriverInterface.md) and the
// instance: the three vk_icd* exports, vkCreateInstance, physical-device
// enumeration and the name tables. Only the vk_icd* symbols are exported
// (libhwsim_vulkan.map); the loader finds every other command through them.
#include <cstring>
#include <new>

#include "vulkan/vulkan_icd_internal.h"

namespace hwaccel::vulkan {

const Model& the_model() {
  static const Model model = [] {
    try {
      return load_model();
    } catch (...) {  // out of memory while reading the snapshot: no driver
      Model none;
      none.why = "the snapshot could not be read";
      return none;
    }
  }();
  return model;
}

std::string_view bounded_name(const char* name) {
  if (!name) return {};
  std::size_t n = strnlen(name, kMaxNameLength + 1);
  return n > kMaxNameLength ? std::string_view() : std::string_view(name, n);
}

namespace {

// The interface version this driver speaks: 5 (vk_icdGetPhysicalDeviceProcAddr,
// and a device apiVersion above the application's is the loader's to handle).
constexpr std::uint32_t kInterfaceVersion = 5;

// The instance extension that gives the *2 queries to Vulkan 1.0 applications.
constexpr const char* kInstanceExtensions[] = {"VK_KHR_get_physical_device_properties2"};

VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceExtensionProperties(const char* layer,
                                                                    std::uint32_t* count,
                                                                    VkExtensionProperties* out) {
  if (!count) return VK_INCOMPLETE;
  if (layer) {
    *count = 0;
    return VK_ERROR_LAYER_NOT_PRESENT;
  }
  const std::uint32_t total = std::uint32_t(std::size(kInstanceExtensions));
  if (!out) {
    *count = total;
    return VK_SUCCESS;
  }
  std::uint32_t n = *count < total ? *count : total;
  for (std::uint32_t i = 0; i < n; ++i) {
    out[i] = {};
    copy_name(out[i].extensionName, kInstanceExtensions[i]);
    out[i].specVersion = 2;
  }
  *count = n;
  return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceVersion(std::uint32_t* version) {
  if (version) *version = VK_MAKE_API_VERSION(0, 1, 3, VK_HEADER_VERSION);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info,
                                              const VkAllocationCallbacks*, VkInstance* out) {
  if (!info || !out) return VK_ERROR_INITIALIZATION_FAILED;
  // Only our one extension may be asked for.
  if (info->enabledExtensionCount > 0 && !info->ppEnabledExtensionNames)
    return VK_ERROR_EXTENSION_NOT_PRESENT;
  for (std::uint32_t i = 0; i < info->enabledExtensionCount && i < 4096; ++i) {
    std::string_view name = bounded_name(info->ppEnabledExtensionNames[i]);
    if (name != kInstanceExtensions[0]) return VK_ERROR_EXTENSION_NOT_PRESENT;
  }
  if (info->enabledExtensionCount >= 4096) return VK_ERROR_EXTENSION_NOT_PRESENT;
  const Model& model = the_model();
  // A host without a Vulkan driver: the loader then fails as with no driver at all.
  if (!model.has_driver) return VK_ERROR_INCOMPATIBLE_DRIVER;
  auto* instance = new (std::nothrow) InstanceObj;
  if (!instance) return VK_ERROR_OUT_OF_HOST_MEMORY;
  try {
    for (const Device& d : model.devices) {
      auto gpu = std::make_unique<PhysicalDeviceObj>();
      set_loader_magic_value(gpu.get());
      gpu->model = &d;
      instance->gpus.push_back(std::move(gpu));
    }
  } catch (...) {
    delete instance;
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  set_loader_magic_value(instance);
  *out = reinterpret_cast<VkInstance>(instance);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks*) {
  delete reinterpret_cast<InstanceObj*>(instance);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDevices(VkInstance instance, std::uint32_t* count,
                                                        VkPhysicalDevice* out) {
  if (!instance || !count) return VK_INCOMPLETE;
  auto& gpus = reinterpret_cast<InstanceObj*>(instance)->gpus;
  const std::uint32_t total = std::uint32_t(gpus.size());
  if (!out) {
    *count = total;
    return VK_SUCCESS;
  }
  std::uint32_t n = *count < total ? *count : total;
  for (std::uint32_t i = 0; i < n; ++i) out[i] = reinterpret_cast<VkPhysicalDevice>(gpus[i].get());
  *count = n;
  return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}

// Each device a group of its own (no linked adapters).
VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDeviceGroups(VkInstance instance,
                                                             std::uint32_t* count,
                                                             VkPhysicalDeviceGroupProperties* out) {
  if (!instance || !count) return VK_INCOMPLETE;
  auto& gpus = reinterpret_cast<InstanceObj*>(instance)->gpus;
  const std::uint32_t total = std::uint32_t(gpus.size());
  if (!out) {
    *count = total;
    return VK_SUCCESS;
  }
  std::uint32_t n = *count < total ? *count : total;
  for (std::uint32_t i = 0; i < n; ++i) {
    out[i].physicalDeviceCount = 1;
    out[i].physicalDevices[0] = reinterpret_cast<VkPhysicalDevice>(gpus[i].get());
    for (std::uint32_t j = 1; j < VK_MAX_DEVICE_GROUP_SIZE; ++j)
      out[i].physicalDevices[j] = nullptr;
    out[i].subsetAllocation = VK_FALSE;
  }
  *count = n;
  return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance,
                                                             const char* pName);

struct Named {
  const char* name;
  PFN_vkVoidFunction fn;
};
#define HWSIM_VK(name, fn) \
  { name, reinterpret_cast<PFN_vkVoidFunction>(fn) }
// Global commands: answered without an instance.
const Named kGlobal[] = {
    HWSIM_VK("vkCreateInstance", CreateInstance),
    HWSIM_VK("vkEnumerateInstanceExtensionProperties", EnumerateInstanceExtensionProperties),
    HWSIM_VK("vkEnumerateInstanceVersion", EnumerateInstanceVersion),
    HWSIM_VK("vkGetInstanceProcAddr", GetInstanceProcAddr),
};
const Named kInstance[] = {
    HWSIM_VK("vkDestroyInstance", DestroyInstance),
    HWSIM_VK("vkEnumeratePhysicalDevices", EnumeratePhysicalDevices),
    HWSIM_VK("vkEnumeratePhysicalDeviceGroups", EnumeratePhysicalDeviceGroups),
    HWSIM_VK("vkEnumeratePhysicalDeviceGroupsKHR", EnumeratePhysicalDeviceGroups),
};
#undef HWSIM_VK

PFN_vkVoidFunction find(const Named* table, std::size_t n, std::string_view name) {
  for (std::size_t i = 0; i < n; ++i)
    if (name == table[i].name) return table[i].fn;
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance,
                                                             const char* pName) {
  std::string_view name = bounded_name(pName);
  if (name.empty()) return nullptr;
  if (auto fn = find(kGlobal, std::size(kGlobal), name)) return fn;
  if (!instance) return nullptr;
  if (auto fn = instance_function(name)) return fn;
  if (auto fn = physical_device_function(name)) return fn;
  return device_function(name);
}

}  // namespace

PFN_vkVoidFunction instance_function(std::string_view name) {
  return find(kInstance, std::size(kInstance), name);
}

}  // namespace hwaccel::vulkan

extern "C" {

__attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vk_icdNegotiateLoaderICDInterfaceVersion(std::uint32_t* version) {
  if (!version) return VK_ERROR_INCOMPATIBLE_DRIVER;
  if (*version < 2) return VK_ERROR_INCOMPATIBLE_DRIVER;  // loaders older than 2016
  if (*version > hwaccel::vulkan::kInterfaceVersion) *version = hwaccel::vulkan::kInterfaceVersion;
  return VK_SUCCESS;
}

__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetInstanceProcAddr(VkInstance instance, const char* name) {
  return hwaccel::vulkan::GetInstanceProcAddr(instance, name);
}

__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetPhysicalDeviceProcAddr(VkInstance instance, const char* name) {
  if (!instance) return nullptr;
  return hwaccel::vulkan::physical_device_function(hwaccel::vulkan::bounded_name(name));
}

}  // extern "C"
