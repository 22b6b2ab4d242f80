// Physical-device queries: what a device is (properties, driver, UUIDs), its
// memory, queues, features, formats and extensions. Values the snapshot does not
// hold (limits, features, formats) are a small set a conformant Vulkan 1.3
// desktop driver reports at least (the specification's "Required Limits" and
// "Feature Requirements"); docs/hwsim.md says which answers come from the host.
#include <cstring>

#include "vulkan/vulkan_icd_internal.h"

namespace hwaccel::vulkan {
namespace {

const Device* model_of(VkPhysicalDevice gpu) {
  return gpu ? reinterpret_cast<PhysicalDeviceObj*>(gpu)->model : nullptr;
}

bool unified(const Device& d) {
  return d.kind == DeviceKind::cpu || d.kind == DeviceKind::integrated || d.heaps.size() < 2;
}

void fill_limits(const Device& d, VkPhysicalDeviceLimits& l) {
  l = {};
  l.maxImageDimension1D = 16384;
  l.maxImageDimension2D = 16384;
  l.maxImageDimension3D = 2048;
  l.maxImageDimensionCube = 16384;
  l.maxImageArrayLayers = 2048;
  l.maxTexelBufferElements = 1u << 27;
  l.maxUniformBufferRange = 65536;
  l.maxStorageBufferRange = 1u << 30;
  l.maxPushConstantsSize = 256;
  l.maxMemoryAllocationCount = 4096;
  l.maxSamplerAllocationCount = 4000;
  l.bufferImageGranularity = d.kind == DeviceKind::discrete ? 1024 : 64;
  l.maxBoundDescriptorSets = 8;
  l.maxPerStageDescriptorSamplers = 1u << 20;
  l.maxPerStageDescriptorUniformBuffers = 1u << 20;
  l.maxPerStageDescriptorStorageBuffers = 1u << 20;
  l.maxPerStageDescriptorSampledImages = 1u << 20;
  l.maxPerStageDescriptorStorageImages = 1u << 20;
  l.maxPerStageDescriptorInputAttachments = 1u << 20;
  l.maxPerStageResources = 1u << 20;
  l.maxDescriptorSetSamplers = 1u << 20;
  l.maxDescriptorSetUniformBuffers = 1u << 20;
  l.maxDescriptorSetUniformBuffersDynamic = 16;
  l.maxDescriptorSetStorageBuffers = 1u << 20;
  l.maxDescriptorSetStorageBuffersDynamic = 16;
  l.maxDescriptorSetSampledImages = 1u << 20;
  l.maxDescriptorSetStorageImages = 1u << 20;
  l.maxDescriptorSetInputAttachments = 1u << 20;
  l.maxVertexInputAttributes = 32;
  l.maxVertexInputBindings = 32;
  l.maxVertexInputAttributeOffset = 2047;
  l.maxVertexInputBindingStride = 2048;
  l.maxVertexOutputComponents = 128;
  l.maxFragmentInputComponents = 128;
  l.maxFragmentOutputAttachments = 8;
  l.maxFragmentDualSrcAttachments = 1;
  l.maxFragmentCombinedOutputResources = 16;
  l.maxComputeSharedMemorySize = 32768;
  for (auto& n : l.maxComputeWorkGroupCount) n = 65535;
  l.maxComputeWorkGroupInvocations = 1024;
  l.maxComputeWorkGroupSize[0] = 1024;
  l.maxComputeWorkGroupSize[1] = 1024;
  l.maxComputeWorkGroupSize[2] = 64;
  l.subPixelPrecisionBits = 4;
  l.subTexelPrecisionBits = 4;
  l.mipmapPrecisionBits = 4;
  l.maxDrawIndexedIndexValue = 0xffffffffu;
  l.maxDrawIndirectCount = 0xffffffffu;
  l.maxSamplerLodBias = 2.0f;
  l.maxSamplerAnisotropy = 16.0f;
  l.maxViewports = 16;
  l.maxViewportDimensions[0] = l.maxViewportDimensions[1] = 16384;
  l.viewportBoundsRange[0] = -32768.0f;
  l.viewportBoundsRange[1] = 32767.0f;
  l.minMemoryMapAlignment = 64;
  l.minTexelBufferOffsetAlignment = 16;
  l.minUniformBufferOffsetAlignment = 256;
  l.minStorageBufferOffsetAlignment = 32;
  l.minTexelOffset = -8;
  l.maxTexelOffset = 7;
  l.minTexelGatherOffset = -8;
  l.maxTexelGatherOffset = 7;
  l.minInterpolationOffset = -0.5f;
  l.maxInterpolationOffset = 0.4375f;
  l.subPixelInterpolationOffsetBits = 4;
  l.maxFramebufferWidth = l.maxFramebufferHeight = 16384;
  l.maxFramebufferLayers = 1024;
  l.framebufferColorSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
  l.framebufferDepthSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
  l.framebufferStencilSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
  l.framebufferNoAttachmentsSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
  l.maxColorAttachments = 8;
  l.sampledImageColorSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
  l.sampledImageIntegerSampleCounts = VK_SAMPLE_COUNT_1_BIT;
  l.sampledImageDepthSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
  l.sampledImageStencilSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
  l.storageImageSampleCounts = VK_SAMPLE_COUNT_1_BIT;
  l.maxSampleMaskWords = 1;
  l.timestampComputeAndGraphics = VK_TRUE;
  l.timestampPeriod = 1.0f;
  l.maxClipDistances = 8;
  l.maxCullDistances = 8;
  l.maxCombinedClipAndCullDistances = 8;
  l.discreteQueuePriorities = 2;
  l.pointSizeRange[0] = 1.0f;
  l.pointSizeRange[1] = 64.0f;
  l.lineWidthRange[0] = l.lineWidthRange[1] = 1.0f;
  l.pointSizeGranularity = 1.0f;
  l.standardSampleLocations = VK_TRUE;
  l.optimalBufferCopyOffsetAlignment = 1;
  l.optimalBufferCopyRowPitchAlignment = 1;
  l.nonCoherentAtomSize = 64;
}

void fill_properties(const Device& d, VkPhysicalDeviceProperties& p) {
  p = {};
  p.apiVersion = d.api_version;
  p.driverVersion = d.driver_version;
  p.vendorID = d.vendor_id;
  p.deviceID = d.device_id;
  p.deviceType = static_cast<VkPhysicalDeviceType>(d.kind);
  copy_name(p.deviceName, d.name);
  std::memcpy(p.pipelineCacheUUID, d.driver_uuid.data(), VK_UUID_SIZE);
  fill_limits(d, p.limits);
}

void fill_driver(const Device& d, VkDriverId& id, char (&name)[VK_MAX_DRIVER_NAME_SIZE],
                 char (&info)[VK_MAX_DRIVER_INFO_SIZE]) {
  id = static_cast<VkDriverId>(d.driver_id);
  copy_name(name, d.driver_name);
  copy_name(info, d.driver_info);
}

// The pNext chain of a *2 query: each struct of ours filled, the others left as
// the caller gave them. A chain is walked at most this far (a loop ends there).
constexpr int kMaxChain = 256;

template <typename F>
void walk(void* next, F&& fill) {
  auto* s = static_cast<VkBaseOutStructure*>(next);
  for (int n = 0; s && n < kMaxChain; ++n, s = s->pNext) fill(s);
}

void fill_properties_chain(const Device& d, void* next) {
  walk(next, [&](VkBaseOutStructure* s) {
    switch (s->sType) {
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES: {
        auto* p = reinterpret_cast<VkPhysicalDeviceIDProperties*>(s);
        std::memcpy(p->deviceUUID, d.device_uuid.data(), VK_UUID_SIZE);
        std::memcpy(p->driverUUID, d.driver_uuid.data(), VK_UUID_SIZE);
        std::memset(p->deviceLUID, 0, VK_LUID_SIZE);
        p->deviceNodeMask = 0;
        p->deviceLUIDValid = VK_FALSE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES: {
        auto* p = reinterpret_cast<VkPhysicalDeviceDriverProperties*>(s);
        fill_driver(d, p->driverID, p->driverName, p->driverInfo);
        p->conformanceVersion = {};  // not recorded
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES: {
        auto* p = reinterpret_cast<VkPhysicalDeviceVulkan11Properties*>(s);
        std::memcpy(p->deviceUUID, d.device_uuid.data(), VK_UUID_SIZE);
        std::memcpy(p->driverUUID, d.driver_uuid.data(), VK_UUID_SIZE);
        std::memset(p->deviceLUID, 0, VK_LUID_SIZE);
        p->deviceNodeMask = 0;
        p->deviceLUIDValid = VK_FALSE;
        p->subgroupSize = d.kind == DeviceKind::cpu ? 8 : 32;
        p->subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
        p->subgroupSupportedOperations = VK_SUBGROUP_FEATURE_BASIC_BIT;
        p->subgroupQuadOperationsInAllStages = VK_FALSE;
        p->pointClippingBehavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
        p->maxMultiviewViewCount = 6;
        p->maxMultiviewInstanceIndex = (1u << 27) - 1;
        p->protectedNoFault = VK_FALSE;
        p->maxPerSetDescriptors = 1024;
        p->maxMemoryAllocationSize = d.heaps.empty() ? 0 : d.heaps[0].size;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES: {
        auto* p = reinterpret_cast<VkPhysicalDeviceVulkan12Properties*>(s);
        fill_driver(d, p->driverID, p->driverName, p->driverInfo);
        p->conformanceVersion = {};
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT: {
        auto* p = reinterpret_cast<VkPhysicalDeviceMemoryBudgetPropertiesEXT*>(s);
        for (std::uint32_t i = 0; i < VK_MAX_MEMORY_HEAPS; ++i) {
          p->heapBudget[i] = i < d.heaps.size() ? d.heaps[i].size : 0;
          p->heapUsage[i] = 0;
        }
        break;
      }
      default:
        break;
    }
  });
}

// A small set of features: the ones Vulkan 1.3 requires, and the common
// compute ones a desktop GPU has.
void fill_features(const Device& d, VkPhysicalDeviceFeatures& f) {
  f = {};
  f.robustBufferAccess = VK_TRUE;
  f.fullDrawIndexUint32 = VK_TRUE;
  f.independentBlend = VK_TRUE;
  f.sampleRateShading = VK_TRUE;
  f.samplerAnisotropy = VK_TRUE;
  f.shaderStorageImageExtendedFormats = VK_TRUE;
  f.shaderInt64 = VK_TRUE;
  f.shaderInt16 = VK_TRUE;
  f.shaderFloat64 = d.kind == DeviceKind::discrete ? VK_TRUE : VK_FALSE;
}

void fill_features_chain(void* next) {
  walk(next, [&](VkBaseOutStructure* s) {
    switch (s->sType) {
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES: {
        auto* f = reinterpret_cast<VkPhysicalDeviceVulkan11Features*>(s);
        f->storageBuffer16BitAccess = VK_TRUE;
        f->uniformAndStorageBuffer16BitAccess = VK_TRUE;
        f->multiview = VK_TRUE;
        f->shaderDrawParameters = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
        auto* f = reinterpret_cast<VkPhysicalDeviceVulkan12Features*>(s);
        f->storageBuffer8BitAccess = VK_TRUE;
        f->uniformAndStorageBuffer8BitAccess = VK_TRUE;
        f->shaderFloat16 = VK_TRUE;
        f->shaderInt8 = VK_TRUE;
        f->imagelessFramebuffer = VK_TRUE;
        f->uniformBufferStandardLayout = VK_TRUE;
        f->shaderSubgroupExtendedTypes = VK_TRUE;
        f->separateDepthStencilLayouts = VK_TRUE;
        f->hostQueryReset = VK_TRUE;
        f->timelineSemaphore = VK_TRUE;
        f->bufferDeviceAddress = VK_TRUE;
        f->vulkanMemoryModel = VK_TRUE;
        f->vulkanMemoryModelDeviceScope = VK_TRUE;
        f->subgroupBroadcastDynamicId = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
        auto* f = reinterpret_cast<VkPhysicalDeviceVulkan13Features*>(s);
        f->robustImageAccess = VK_TRUE;
        f->inlineUniformBlock = VK_TRUE;
        f->pipelineCreationCacheControl = VK_TRUE;
        f->privateData = VK_TRUE;
        f->shaderDemoteToHelperInvocation = VK_TRUE;
        f->shaderTerminateInvocation = VK_TRUE;
        f->subgroupSizeControl = VK_TRUE;
        f->computeFullSubgroups = VK_TRUE;
        f->synchronization2 = VK_TRUE;
        f->shaderZeroInitializeWorkgroupMemory = VK_TRUE;
        f->dynamicRendering = VK_TRUE;
        f->shaderIntegerDotProduct = VK_TRUE;
        f->maintenance4 = VK_TRUE;
        break;
      }
      default:
        break;
    }
  });
}

// Formats a driver must support (the specification's "Required Format Support"),
// a few of each kind; all others answer no features.
VkFormatProperties format_properties(VkFormat format) {
  constexpr VkFormatFeatureFlags kTransfer =
      VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  constexpr VkFormatFeatureFlags kColor =
      kTransfer | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT |
      VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT |
      VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT |
      VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
  constexpr VkFormatFeatureFlags kBuffer = VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT |
                                           VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT |
                                           VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
  constexpr VkFormatFeatureFlags kDepth = kTransfer | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                                          VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                          VK_FORMAT_FEATURE_BLIT_SRC_BIT;
  switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SNORM:
    case VK_FORMAT_R8_UNORM:
    case VK_FORMAT_R8G8_UNORM:
    case VK_FORMAT_R16_SFLOAT:
    case VK_FORMAT_R16G16_SFLOAT:
    case VK_FORMAT_R16G16B16A16_SFLOAT:
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_R32G32_SFLOAT:
    case VK_FORMAT_R32G32B32A32_SFLOAT:
    case VK_FORMAT_R32_UINT:
    case VK_FORMAT_R32_SINT:
      return {kColor & ~VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT, kColor, kBuffer};
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_SRGB:
      return {kTransfer | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT,
              kColor & ~VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT, 0};
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D32_SFLOAT:
      return {0, kDepth, 0};
    default:
      return {0, 0, 0};
  }
}

// Device extensions with no commands of their own (core in 1.1-1.3, or pure
// structs), so listing them promises nothing this driver does not answer.
constexpr const char* kDeviceExtensions[] = {
    "VK_EXT_memory_budget",
    "VK_KHR_16bit_storage",
    "VK_KHR_8bit_storage",
    "VK_KHR_driver_properties",
    "VK_KHR_shader_float16_int8",
    "VK_KHR_shader_non_semantic_info",
    "VK_KHR_storage_buffer_storage_class",
};

// --- entry points -----------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties(VkPhysicalDevice gpu,
                                                       VkPhysicalDeviceProperties* out) {
  if (const Device* d = model_of(gpu); d && out) fill_properties(*d, *out);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice gpu,
                                                        VkPhysicalDeviceProperties2* out) {
  const Device* d = model_of(gpu);
  if (!d || !out) return;
  fill_properties(*d, out->properties);
  fill_properties_chain(*d, out->pNext);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures(VkPhysicalDevice gpu,
                                                     VkPhysicalDeviceFeatures* out) {
  if (const Device* d = model_of(gpu); d && out) fill_features(*d, *out);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice gpu,
                                                      VkPhysicalDeviceFeatures2* out) {
  const Device* d = model_of(gpu);
  if (!d || !out) return;
  fill_features(*d, out->features);
  fill_features_chain(out->pNext);
}

VKAPI_ATTR void VKAPI_CALL
GetPhysicalDeviceMemoryProperties(VkPhysicalDevice gpu, VkPhysicalDeviceMemoryProperties* out) {
  if (const Device* d = model_of(gpu); d && out) *out = memory_properties(*d);
}

VKAPI_ATTR void VKAPI_CALL
GetPhysicalDeviceMemoryProperties2(VkPhysicalDevice gpu, VkPhysicalDeviceMemoryProperties2* out) {
  const Device* d = model_of(gpu);
  if (!d || !out) return;
  out->memoryProperties = memory_properties(*d);
  fill_properties_chain(*d, out->pNext);  // the memory budget
}

// The count-then-fill idiom of the specification: VK_INCOMPLETE when cut.
template <typename T, typename Get>
VkResult enumerate(std::uint32_t total, std::uint32_t* count, T* out, Get&& get) {
  if (!count) return VK_INCOMPLETE;
  if (!out) {
    *count = total;
    return VK_SUCCESS;
  }
  std::uint32_t n = *count < total ? *count : total;
  for (std::uint32_t i = 0; i < n; ++i) get(i, out[i]);
  *count = n;
  return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties(VkPhysicalDevice gpu,
                                                                  std::uint32_t* count,
                                                                  VkQueueFamilyProperties* out) {
  const Device* d = model_of(gpu);
  if (!d) {
    if (count) *count = 0;
    return;
  }
  enumerate(queue_family_count(*d), count, out,
            [&](std::uint32_t i, VkQueueFamilyProperties& p) { p = queue_family(*d, i); });
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties2(VkPhysicalDevice gpu,
                                                                   std::uint32_t* count,
                                                                   VkQueueFamilyProperties2* out) {
  const Device* d = model_of(gpu);
  if (!d) {
    if (count) *count = 0;
    return;
  }
  enumerate(queue_family_count(*d), count, out, [&](std::uint32_t i, VkQueueFamilyProperties2& p) {
    p.queueFamilyProperties = queue_family(*d, i);
  });
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFormatProperties(VkPhysicalDevice, VkFormat format,
                                                             VkFormatProperties* out) {
  if (out) *out = format_properties(format);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFormatProperties2(VkPhysicalDevice, VkFormat format,
                                                              VkFormatProperties2* out) {
  if (out) out->formatProperties = format_properties(format);
}

VkResult image_format(VkFormat format, VkImageType type, VkImageTiling tiling,
                      VkImageUsageFlags usage, VkImageFormatProperties* out) {
  if (!out) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  *out = {};
  VkFormatProperties f = format_properties(format);
  VkFormatFeatureFlags have =
      tiling == VK_IMAGE_TILING_LINEAR ? f.linearTilingFeatures : f.optimalTilingFeatures;
  if (!have) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if ((usage & VK_IMAGE_USAGE_STORAGE_BIT) && !(have & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT))
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if ((usage & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) &&
      !(have & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT))
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if ((usage & VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT) &&
      !(have & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT))
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  std::uint32_t edge = type == VK_IMAGE_TYPE_3D ? 2048 : 16384;
  out->maxExtent = {edge, type == VK_IMAGE_TYPE_1D ? 1u : edge,
                    type == VK_IMAGE_TYPE_3D ? edge : 1u};
  out->maxMipLevels = type == VK_IMAGE_TYPE_3D ? 12 : 15;
  out->maxArrayLayers = type == VK_IMAGE_TYPE_3D ? 1 : 2048;
  out->sampleCounts = VK_SAMPLE_COUNT_1_BIT;
  out->maxResourceSize = VkDeviceSize{1} << 31;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceImageFormatProperties(
    VkPhysicalDevice, VkFormat format, VkImageType type, VkImageTiling tiling,
    VkImageUsageFlags usage, VkImageCreateFlags, VkImageFormatProperties* out) {
  return image_format(format, type, tiling, usage, out);
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceImageFormatProperties2(
    VkPhysicalDevice, const VkPhysicalDeviceImageFormatInfo2* info, VkImageFormatProperties2* out) {
  if (!info || !out) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  return image_format(info->format, info->type, info->tiling, info->usage,
                      &out->imageFormatProperties);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceSparseImageFormatProperties(
    VkPhysicalDevice, VkFormat, VkImageType, VkSampleCountFlagBits, VkImageUsageFlags,
    VkImageTiling, std::uint32_t* count, VkSparseImageFormatProperties*) {
  if (count) *count = 0;  // no sparse residency
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceSparseImageFormatProperties2(
    VkPhysicalDevice, const VkPhysicalDeviceSparseImageFormatInfo2*, std::uint32_t* count,
    VkSparseImageFormatProperties2*) {
  if (count) *count = 0;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceToolProperties(VkPhysicalDevice,
                                                               std::uint32_t* count,
                                                               VkPhysicalDeviceToolProperties*) {
  if (count) *count = 0;
  return VK_SUCCESS;
}

// No external memory, fence or semaphore handle types.
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalBufferProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalBufferInfo*, VkExternalBufferProperties* out) {
  if (out) out->externalMemoryProperties = {};
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalFenceProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalFenceInfo*, VkExternalFenceProperties* out) {
  if (!out) return;
  out->exportFromImportedHandleTypes = out->compatibleHandleTypes = 0;
  out->externalFenceFeatures = 0;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalSemaphoreInfo*,
    VkExternalSemaphoreProperties* out) {
  if (!out) return;
  out->exportFromImportedHandleTypes = out->compatibleHandleTypes = 0;
  out->externalSemaphoreFeatures = 0;
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice,
                                                                  const char* layer,
                                                                  std::uint32_t* count,
                                                                  VkExtensionProperties* out) {
  if (layer) {  // no layers here
    if (count) *count = 0;
    return VK_ERROR_LAYER_NOT_PRESENT;
  }
  return enumerate(std::uint32_t(std::size(kDeviceExtensions)), count, out,
                   [](std::uint32_t i, VkExtensionProperties& p) {
                     p = {};
                     copy_name(p.extensionName, kDeviceExtensions[i]);
                     p.specVersion = 1;
                   });
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceLayerProperties(VkPhysicalDevice,
                                                              std::uint32_t* count,
                                                              VkLayerProperties*) {
  if (count) *count = 0;
  return VK_SUCCESS;
}

struct Named {
  const char* name;
  PFN_vkVoidFunction fn;
};
#define HWSIM_VK(name, fn) \
  { name, reinterpret_cast<PFN_vkVoidFunction>(fn) }
const Named kPhysical[] = {
    HWSIM_VK("vkGetPhysicalDeviceProperties", GetPhysicalDeviceProperties),
    HWSIM_VK("vkGetPhysicalDeviceProperties2", GetPhysicalDeviceProperties2),
    HWSIM_VK("vkGetPhysicalDeviceProperties2KHR", GetPhysicalDeviceProperties2),
    HWSIM_VK("vkGetPhysicalDeviceFeatures", GetPhysicalDeviceFeatures),
    HWSIM_VK("vkGetPhysicalDeviceFeatures2", GetPhysicalDeviceFeatures2),
    HWSIM_VK("vkGetPhysicalDeviceFeatures2KHR", GetPhysicalDeviceFeatures2),
    HWSIM_VK("vkGetPhysicalDeviceMemoryProperties", GetPhysicalDeviceMemoryProperties),
    HWSIM_VK("vkGetPhysicalDeviceMemoryProperties2", GetPhysicalDeviceMemoryProperties2),
    HWSIM_VK("vkGetPhysicalDeviceMemoryProperties2KHR", GetPhysicalDeviceMemoryProperties2),
    HWSIM_VK("vkGetPhysicalDeviceQueueFamilyProperties", GetPhysicalDeviceQueueFamilyProperties),
    HWSIM_VK("vkGetPhysicalDeviceQueueFamilyProperties2", GetPhysicalDeviceQueueFamilyProperties2),
    HWSIM_VK("vkGetPhysicalDeviceQueueFamilyProperties2KHR",
             GetPhysicalDeviceQueueFamilyProperties2),
    HWSIM_VK("vkGetPhysicalDeviceFormatProperties", GetPhysicalDeviceFormatProperties),
    HWSIM_VK("vkGetPhysicalDeviceFormatProperties2", GetPhysicalDeviceFormatProperties2),
    HWSIM_VK("vkGetPhysicalDeviceFormatProperties2KHR", GetPhysicalDeviceFormatProperties2),
    HWSIM_VK("vkGetPhysicalDeviceImageFormatProperties", GetPhysicalDeviceImageFormatProperties),
    HWSIM_VK("vkGetPhysicalDeviceImageFormatProperties2", GetPhysicalDeviceImageFormatProperties2),
    HWSIM_VK("vkGetPhysicalDeviceImageFormatProperties2KHR",
             GetPhysicalDeviceImageFormatProperties2),
    HWSIM_VK("vkGetPhysicalDeviceSparseImageFormatProperties",
             GetPhysicalDeviceSparseImageFormatProperties),
    HWSIM_VK("vkGetPhysicalDeviceSparseImageFormatProperties2",
             GetPhysicalDeviceSparseImageFormatProperties2),
    HWSIM_VK("vkGetPhysicalDeviceSparseImageFormatProperties2KHR",
             GetPhysicalDeviceSparseImageFormatProperties2),
    HWSIM_VK("vkGetPhysicalDeviceToolProperties", GetPhysicalDeviceToolProperties),
    HWSIM_VK("vkGetPhysicalDeviceExternalBufferProperties",
             GetPhysicalDeviceExternalBufferProperties),
    HWSIM_VK("vkGetPhysicalDeviceExternalFenceProperties",
             GetPhysicalDeviceExternalFenceProperties),
    HWSIM_VK("vkGetPhysicalDeviceExternalSemaphoreProperties",
             GetPhysicalDeviceExternalSemaphoreProperties),
    HWSIM_VK("vkEnumerateDeviceExtensionProperties", EnumerateDeviceExtensionProperties),
    HWSIM_VK("vkEnumerateDeviceLayerProperties", EnumerateDeviceLayerProperties),
};
#undef HWSIM_VK

}  // namespace

std::uint32_t queue_family_count(const Device& d) {
  return d.kind == DeviceKind::discrete ? 3 : 1;
}

// Family 0 does everything; a discrete GPU adds a compute family and a
// transfer (copy engine) family, as desktop drivers list them.
VkQueueFamilyProperties queue_family(const Device& d, std::uint32_t i) {
  VkQueueFamilyProperties p{};
  p.timestampValidBits = 64;
  p.minImageTransferGranularity = {1, 1, 1};
  if (i == 0 || d.kind != DeviceKind::discrete) {
    p.queueFlags = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
    p.queueCount = 1;
  } else if (i == 1) {
    p.queueFlags = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
    p.queueCount = 4;
  } else {
    p.queueFlags = VK_QUEUE_TRANSFER_BIT;
    p.queueCount = 1;
  }
  return p;
}

// Discrete: VRAM (device-local) and the host's memory seen over the bus
// (host-visible, coherent; cached or not). Unified (integrated GPU, CPU
// renderer): one heap, device-local and host-visible.
VkPhysicalDeviceMemoryProperties memory_properties(const Device& d) {
  VkPhysicalDeviceMemoryProperties m{};
  m.memoryHeapCount = std::uint32_t(d.heaps.size() < VK_MAX_MEMORY_HEAPS ? d.heaps.size() : 0);
  for (std::uint32_t i = 0; i < m.memoryHeapCount; ++i) {
    m.memoryHeaps[i].size = d.heaps[i].size;
    m.memoryHeaps[i].flags = d.heaps[i].device_local ? VK_MEMORY_HEAP_DEVICE_LOCAL_BIT : 0;
  }
  if (m.memoryHeapCount == 0) return m;
  constexpr VkMemoryPropertyFlags kHost =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  if (unified(d)) {
    m.memoryTypeCount = 3;
    m.memoryTypes[0] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
    m.memoryTypes[1] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | kHost, 0};
    m.memoryTypes[2] = {
        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | kHost | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 0};
  } else {
    m.memoryTypeCount = 3;
    m.memoryTypes[0] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
    m.memoryTypes[1] = {kHost, 1};
    m.memoryTypes[2] = {kHost | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 1};
  }
  return m;
}

PFN_vkVoidFunction physical_device_function(std::string_view name) {
  for (const auto& f : kPhysical)
    if (name == f.name) return f.fn;
  return nullptr;
}

}  // namespace hwaccel::vulkan
