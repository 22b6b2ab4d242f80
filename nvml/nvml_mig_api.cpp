// NVML's MIG profile and instance calls (docs/nvml.md): GPU instance profiles from
// the GPU family's table (nvml_mig_profiles), the GPU and compute instances from
// the MIG devices the snapshot recorded with their instance ids.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "nvml/nvml_abi.h"
#include "nvml/nvml_abi_monitor.h"
#include "nvml/nvml_api_internal.h"
#include "nvml/nvml_model.h"

using namespace hwaccel::nvml::api;
using hwaccel::nvml::ComputeInstance;
using hwaccel::nvml::GiProfile;
using hwaccel::nvml::Gpu;
using hwaccel::nvml::GpuInstance;
using hwaccel::nvml::Model;

namespace {

// A whole GPU in MIG mode with a known profile table, or the error to return.
nvmlReturn_t mig_gpu_of(nvmlDevice_t device, const Gpu*& gpu) {
  if (auto r = gpu_of(device, gpu)) return r;
  if (gpu->is_mig) return NVML_ERROR_INVALID_ARGUMENT;
  // `nvidia-smi mig -lgip` answers "No MIG-enabled devices found" on the others.
  if (!gpu->mig_capable || !gpu->mig_enabled || !gpu->mig_table) return NVML_ERROR_NOT_SUPPORTED;
  return NVML_SUCCESS;
}

template <typename T>
const T* element_of(const void* handle, const std::vector<T>& all) {
  const auto at = reinterpret_cast<std::uintptr_t>(handle);
  const auto first = reinterpret_cast<std::uintptr_t>(all.data());
  if (all.empty() || at < first || at - first >= all.size() * sizeof(T) ||
      (at - first) % sizeof(T) != 0)
    return nullptr;
  return &all[(at - first) / sizeof(T)];
}

nvmlReturn_t gi_of(nvmlGpuInstance_t handle, const GpuInstance*& gi) {
  const Model* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  gi = element_of(handle, model->gpu_instances);
  return gi ? NVML_SUCCESS : NVML_ERROR_INVALID_ARGUMENT;
}

nvmlReturn_t ci_of(nvmlComputeInstance_t handle, const ComputeInstance*& ci) {
  const Model* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  ci = element_of(handle, model->compute_instances);
  return ci ? NVML_SUCCESS : NVML_ERROR_INVALID_ARGUMENT;
}

template <typename Info>
void fill_gi_profile(const GiProfile& p, Info* info) {
  info->id = p.id;
  info->sliceCount = p.slices;
  info->instanceCount = p.instances;
  info->multiprocessorCount = p.sms;
  info->copyEngineCount = p.copy_engines;
  info->decoderCount = p.decoders;
  info->encoderCount = p.encoders;
  info->jpegCount = p.jpegs;
  info->ofaCount = p.ofas;
  info->memorySizeMB = p.memory_mib;
}

void copy_name(const std::string& text, char (&out)[NVML_DEVICE_NAME_V2_BUFFER_SIZE]) {
  std::memset(out, 0, sizeof out);
  std::memcpy(out, text.data(), std::min(text.size(), sizeof out - 1));
}

// The profile behind `index` (NVML_GPU_INSTANCE_PROFILE_*) on a MIG GPU.
nvmlReturn_t gi_profile_at(nvmlDevice_t device, unsigned index, const GiProfile*& profile) {
  const Gpu* gpu = nullptr;
  if (auto r = mig_gpu_of(device, gpu)) return r;
  if (index >= hwaccel::nvml::kGpuInstanceProfileCount) return NVML_ERROR_INVALID_ARGUMENT;
  profile = hwaccel::nvml::gi_profile_by_index(*gpu->mig_table, index);
  return profile ? NVML_SUCCESS : NVML_ERROR_NOT_SUPPORTED;
}

// The profile with id `id` (what -lgip prints) on a MIG GPU.
nvmlReturn_t gi_profile_with_id(nvmlDevice_t device, unsigned id, const Gpu*& gpu,
                                const GiProfile*& profile) {
  if (auto r = mig_gpu_of(device, gpu)) return r;
  profile = hwaccel::nvml::gi_profile_by_id(*gpu->mig_table, id);
  return profile ? NVML_SUCCESS : NVML_ERROR_INVALID_ARGUMENT;
}

std::size_t position_of(const Gpu* gpu) {
  return static_cast<std::size_t>(gpu - ready_model()->gpus.data());
}

// The compute instance profile of `gi` at `index`: only the one that spans the
// whole GPU instance is in the tables (smaller ones: NOT_SUPPORTED).
nvmlReturn_t ci_profile_at(const GpuInstance& gi, unsigned index, unsigned engines) {
  if (index >= hwaccel::nvml::kComputeInstanceProfileCount ||
      engines != NVML_COMPUTE_INSTANCE_ENGINE_PROFILE_SHARED)
    return NVML_ERROR_INVALID_ARGUMENT;
  auto whole = hwaccel::nvml::ci_profile_index_of(gi.profile->slices);
  return whole && *whole == index ? NVML_SUCCESS : NVML_ERROR_NOT_SUPPORTED;
}

template <typename Info>
void fill_ci_profile(const GpuInstance& gi, unsigned index, Info* info) {
  info->id = index;
  info->sliceCount = gi.profile->slices;
  info->instanceCount = 1;
  info->multiprocessorCount = gi.profile->sms;
  info->sharedCopyEngineCount = gi.profile->copy_engines;
  info->sharedDecoderCount = gi.profile->decoders;
  info->sharedEncoderCount = gi.profile->encoders;
  info->sharedJpegCount = gi.profile->jpegs;
  info->sharedOfaCount = gi.profile->ofas;
}

nvmlGpuInstance_t gi_handle(const GpuInstance& gi) {
  return reinterpret_cast<nvmlGpuInstance_t>(const_cast<GpuInstance*>(&gi));
}
nvmlComputeInstance_t ci_handle(const ComputeInstance& ci) {
  return reinterpret_cast<nvmlComputeInstance_t>(const_cast<ComputeInstance*>(&ci));
}

}  // namespace

// ---- GPU instance profiles
NVML_API nvmlReturn_t nvmlDeviceGetGpuInstanceProfileInfo(nvmlDevice_t device, unsigned int index,
                                                          nvmlGpuInstanceProfileInfo_t* info) {
  const GiProfile* p = nullptr;
  if (auto r = gi_profile_at(device, index, p)) return r;
  if (!info) return NVML_ERROR_INVALID_ARGUMENT;
  fill_gi_profile(*p, info);
  info->isP2pSupported = 0;  // none of the tables' profiles (-lgip: P2P No)
  return NVML_SUCCESS;
}

namespace {
// The V calls take a v2 or a v3 struct, told apart by its version field.
nvmlReturn_t fill_gi_profile_v(const GiProfile& p, nvmlGpuInstanceProfileInfo_v2_t* info) {
  if (info->version == nvmlGpuInstanceProfileInfo_v2) {
    fill_gi_profile(p, info);
    info->isP2pSupported = 0;
    copy_name(std::string("MIG ") + p.name, info->name);
    return NVML_SUCCESS;
  }
  if (info->version == nvmlGpuInstanceProfileInfo_v3) {
    auto* v3 = reinterpret_cast<nvmlGpuInstanceProfileInfo_v3_t*>(info);
    fill_gi_profile(p, v3);
    copy_name(std::string("MIG ") + p.name, v3->name);
    v3->capabilities = 0;
    return NVML_SUCCESS;
  }
  return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
}
}  // namespace

NVML_API nvmlReturn_t nvmlDeviceGetGpuInstanceProfileInfoV(nvmlDevice_t device, unsigned int index,
                                                           nvmlGpuInstanceProfileInfo_v2_t* info) {
  const GiProfile* p = nullptr;
  if (auto r = gi_profile_at(device, index, p)) return r;
  if (!info) return NVML_ERROR_INVALID_ARGUMENT;
  return fill_gi_profile_v(*p, info);
}

NVML_API nvmlReturn_t nvmlDeviceGetGpuInstanceProfileInfoByIdV(
    nvmlDevice_t device, unsigned int id, nvmlGpuInstanceProfileInfo_v2_t* info) {
  const Gpu* gpu = nullptr;
  const GiProfile* p = nullptr;
  if (auto r = gi_profile_with_id(device, id, gpu, p)) return r;
  if (!info) return NVML_ERROR_INVALID_ARGUMENT;
  return fill_gi_profile_v(*p, info);
}

// `placements` NULL: how many there are.
NVML_API nvmlReturn_t nvmlDeviceGetGpuInstancePossiblePlacements_v2(
    nvmlDevice_t device, unsigned int id, nvmlGpuInstancePlacement_t* placements,
    unsigned int* count) {
  const Gpu* gpu = nullptr;
  const GiProfile* p = nullptr;
  if (auto r = gi_profile_with_id(device, id, gpu, p)) return r;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  if (placements)
    for (std::size_t i = 0; i < p->starts.size(); ++i)
      placements[i] = {p->starts[i], p->placement_size};
  *count = static_cast<unsigned>(p->starts.size());
  return NVML_SUCCESS;
}

// The first version (deprecated in NVML 11.4) takes the same arguments.
NVML_API nvmlReturn_t nvmlDeviceGetGpuInstancePossiblePlacements(
    nvmlDevice_t device, unsigned int id, nvmlGpuInstancePlacement_t* placements,
    unsigned int* count) {
  return nvmlDeviceGetGpuInstancePossiblePlacements_v2(device, id, placements, count);
}

NVML_API nvmlReturn_t nvmlDeviceGetGpuInstanceRemainingCapacity(nvmlDevice_t device,
                                                                unsigned int id,
                                                                unsigned int* count) {
  const Gpu* gpu = nullptr;
  const GiProfile* p = nullptr;
  if (auto r = gi_profile_with_id(device, id, gpu, p)) return r;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  const Model* model = ready_model();
  std::vector<hwaccel::nvml::Placement> taken;
  unsigned existing = 0;
  for (const auto& gi : model->gpu_instances) {
    if (gi.gpu != position_of(gpu)) continue;
    // An instance whose slot is unknown takes its size somewhere: nothing is sure to fit.
    if (!gi.placement) {
      *count = 0;
      return NVML_SUCCESS;
    }
    taken.push_back(*gi.placement);
    existing += gi.profile == p;
  }
  *count = hwaccel::nvml::remaining_capacity(*p, taken, existing);
  return NVML_SUCCESS;
}

// ---- GPU instances
NVML_API nvmlReturn_t nvmlDeviceGetGpuInstances(nvmlDevice_t device, unsigned int id,
                                                nvmlGpuInstance_t* instances, unsigned int* count) {
  const Gpu* gpu = nullptr;
  const GiProfile* p = nullptr;
  if (auto r = gi_profile_with_id(device, id, gpu, p)) return r;
  if (!instances || !count) return NVML_ERROR_INVALID_ARGUMENT;
  // The caller's array holds the profile's instance count (nvml.h): never more.
  unsigned n = 0;
  for (const auto& gi : ready_model()->gpu_instances)
    if (gi.gpu == position_of(gpu) && gi.profile == p && n < p->instances)
      instances[n++] = gi_handle(gi);
  *count = n;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetGpuInstanceById(nvmlDevice_t device, unsigned int id,
                                                   nvmlGpuInstance_t* instance) {
  const Gpu* gpu = nullptr;
  if (auto r = mig_gpu_of(device, gpu)) return r;
  if (!instance) return NVML_ERROR_INVALID_ARGUMENT;
  for (const auto& gi : ready_model()->gpu_instances)
    if (gi.gpu == position_of(gpu) && gi.id == id) {
      *instance = gi_handle(gi);
      return NVML_SUCCESS;
    }
  return NVML_ERROR_NOT_FOUND;
}

NVML_API nvmlReturn_t nvmlGpuInstanceGetInfo(nvmlGpuInstance_t instance,
                                             nvmlGpuInstanceInfo_t* info) {
  const GpuInstance* gi = nullptr;
  if (auto r = gi_of(instance, gi)) return r;
  if (!info) return NVML_ERROR_INVALID_ARGUMENT;
  info->device = handle_of(ready_model()->gpus[gi->gpu]);
  info->id = gi->id;
  info->profileId = gi->profile->id;
  // A slot the instance id does not give (never on the tables' GPUs): 0:0.
  const auto at = gi->placement.value_or(hwaccel::nvml::Placement{});
  info->placement = {at.start, at.size};
  return NVML_SUCCESS;
}

// ---- compute instance profiles and compute instances
NVML_API nvmlReturn_t nvmlGpuInstanceGetComputeInstanceProfileInfo(
    nvmlGpuInstance_t instance, unsigned int index, unsigned int engines,
    nvmlComputeInstanceProfileInfo_t* info) {
  const GpuInstance* gi = nullptr;
  if (auto r = gi_of(instance, gi)) return r;
  if (auto r = ci_profile_at(*gi, index, engines)) return r;
  if (!info) return NVML_ERROR_INVALID_ARGUMENT;
  fill_ci_profile(*gi, index, info);
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlGpuInstanceGetComputeInstanceProfileInfoV(
    nvmlGpuInstance_t instance, unsigned int index, unsigned int engines,
    nvmlComputeInstanceProfileInfo_v2_t* info) {
  const GpuInstance* gi = nullptr;
  if (auto r = gi_of(instance, gi)) return r;
  if (auto r = ci_profile_at(*gi, index, engines)) return r;
  if (!info) return NVML_ERROR_INVALID_ARGUMENT;
  const std::string name = std::string("MIG ") + gi->profile->name;
  if (info->version == nvmlComputeInstanceProfileInfo_v2) {
    fill_ci_profile(*gi, index, info);
    copy_name(name, info->name);
    return NVML_SUCCESS;
  }
  if (info->version == nvmlComputeInstanceProfileInfo_v3) {
    auto* v3 = reinterpret_cast<nvmlComputeInstanceProfileInfo_v3_t*>(info);
    fill_ci_profile(*gi, index, v3);
    copy_name(name, v3->name);
    v3->capabilities = 0;
    return NVML_SUCCESS;
  }
  return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
}

NVML_API nvmlReturn_t nvmlGpuInstanceGetComputeInstanceRemainingCapacity(nvmlGpuInstance_t instance,
                                                                         unsigned int id,
                                                                         unsigned int* count) {
  const GpuInstance* gi = nullptr;
  if (auto r = gi_of(instance, gi)) return r;
  if (auto r = ci_profile_at(*gi, id, NVML_COMPUTE_INSTANCE_ENGINE_PROFILE_SHARED)) return r;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  *count = gi->compute.empty() ? 1 : 0;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlGpuInstanceGetComputeInstancePossiblePlacements(
    nvmlGpuInstance_t instance, unsigned int id, nvmlComputeInstancePlacement_t* placements,
    unsigned int* count) {
  const GpuInstance* gi = nullptr;
  if (auto r = gi_of(instance, gi)) return r;
  if (auto r = ci_profile_at(*gi, id, NVML_COMPUTE_INSTANCE_ENGINE_PROFILE_SHARED)) return r;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  if (placements) placements[0] = {0, gi->profile->slices};
  *count = 1;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlGpuInstanceGetComputeInstances(nvmlGpuInstance_t instance,
                                                         unsigned int id,
                                                         nvmlComputeInstance_t* instances,
                                                         unsigned int* count) {
  const GpuInstance* gi = nullptr;
  if (auto r = gi_of(instance, gi)) return r;
  if (id >= hwaccel::nvml::kComputeInstanceProfileCount) return NVML_ERROR_INVALID_ARGUMENT;
  if (!instances || !count) return NVML_ERROR_INVALID_ARGUMENT;
  const Model* model = ready_model();
  unsigned n = 0;
  for (std::size_t c : gi->compute)
    if (model->compute_instances[c].profile_index == id && n < gi->profile->slices)
      instances[n++] = ci_handle(model->compute_instances[c]);
  *count = n;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlGpuInstanceGetComputeInstanceById(nvmlGpuInstance_t instance,
                                                            unsigned int id,
                                                            nvmlComputeInstance_t* ci) {
  const GpuInstance* gi = nullptr;
  if (auto r = gi_of(instance, gi)) return r;
  if (!ci) return NVML_ERROR_INVALID_ARGUMENT;
  const Model* model = ready_model();
  for (std::size_t c : gi->compute)
    if (model->compute_instances[c].id == id) {
      *ci = ci_handle(model->compute_instances[c]);
      return NVML_SUCCESS;
    }
  return NVML_ERROR_NOT_FOUND;
}

NVML_API nvmlReturn_t nvmlComputeInstanceGetInfo_v2(nvmlComputeInstance_t instance,
                                                    nvmlComputeInstanceInfo_t* info) {
  const ComputeInstance* ci = nullptr;
  if (auto r = ci_of(instance, ci)) return r;
  if (!info) return NVML_ERROR_INVALID_ARGUMENT;
  const Model* model = ready_model();
  const GpuInstance& gi = model->gpu_instances[ci->gpu_instance];
  info->device = handle_of(model->gpus[gi.gpu]);
  info->gpuInstance = gi_handle(gi);
  info->id = ci->id;
  info->profileId = ci->profile_index;
  info->placement = {ci->placement.start, ci->placement.size};
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlComputeInstanceGetInfo(nvmlComputeInstance_t instance,
                                                 nvmlComputeInstanceInfo_t* info) {
  return nvmlComputeInstanceGetInfo_v2(instance, info);
}

// A MIG device's SMs and engines: its compute instance's share of its GPU
// instance's profile (the whole GPU instance's; smaller compute instances split
// the SMs in a way the tables do not give: NOT_SUPPORTED).
NVML_API nvmlReturn_t nvmlDeviceGetAttributes_v2(nvmlDevice_t device,
                                                 nvmlDeviceAttributes_t* attributes) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!attributes) return NVML_ERROR_INVALID_ARGUMENT;
  if (!gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  const Model* model = ready_model();
  const std::size_t position = position_of(gpu);
  for (const ComputeInstance& ci : model->compute_instances) {
    if (ci.device != position) continue;
    const GpuInstance& gi = model->gpu_instances[ci.gpu_instance];
    if (ci.placement.size != gi.profile->slices) return NVML_ERROR_NOT_SUPPORTED;
    attributes->multiprocessorCount = gi.profile->sms;
    attributes->sharedCopyEngineCount = gi.profile->copy_engines;
    attributes->sharedDecoderCount = gi.profile->decoders;
    attributes->sharedEncoderCount = gi.profile->encoders;
    attributes->sharedJpegCount = gi.profile->jpegs;
    attributes->sharedOfaCount = gi.profile->ofas;
    attributes->gpuInstanceSliceCount = gi.profile->slices;
    attributes->computeInstanceSliceCount = ci.placement.size;
    attributes->memorySizeMB = gi.profile->memory_mib;
    return NVML_SUCCESS;
  }
  return NVML_ERROR_NOT_SUPPORTED;  // no profile table, or its instance ids not recorded
}
NVML_API nvmlReturn_t nvmlDeviceGetAttributes(nvmlDevice_t device,
                                              nvmlDeviceAttributes_t* attributes) {
  return nvmlDeviceGetAttributes_v2(device, attributes);
}
