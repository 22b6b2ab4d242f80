// The NVML entry points the snapshot-backed libnvidia-ml answers (docs/nvml.md).
// Everything else the real library exports is in nvml_stubs.cpp.
//
// Why one file past 500 lines: it is a flat list of short extern "C" functions,
// each answering one NVML call from the model, in sections named after NVML's
// own API groups (init, system, enumeration, identity, PCI, memory, NUMA, MIG,
// NVLink, addressing) so that a call is found where NVML's reference puts it;
// the MIG calls that need more than a lookup are in nvml_mig_api.cpp.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "nvml/nvml_abi.h"
#include "nvml/nvml_abi_monitor.h"
#include "nvml/nvml_api_internal.h"
#include "nvml/nvml_model.h"
#include "src/host/live_host.h"
#include "src/host/stopwatch.h"

namespace hwaccel::nvml::api {

namespace {
std::mutex g_mutex;
int g_init_count = 0;
// Models are never freed: a handle a program keeps past nvmlShutdown still points
// at memory (it gets NVML_ERROR_UNINITIALIZED, not a crash).
std::vector<std::unique_ptr<Model>>* g_models = new std::vector<std::unique_ptr<Model>>;
Model* g_model = nullptr;

nvmlReturn_t init() {
  std::lock_guard lock(g_mutex);
  if (g_init_count > 0) {
    ++g_init_count;
    return NVML_SUCCESS;
  }
  // The recorded figure is a whole process's (the helper's, or nvidia-smi's from
  // exec to exit), so it counts from this process's start: what exec and loading
  // this stand-in library cost (libstdc++, yaml-cpp: 2.7-4 ms) is hidden in the
  // recorded start-up instead of added to it. At most 5 ms are credited, so a
  // program that calls nvmlInit late still waits the rest of the start-up.
  const auto started = hwaccel::Stopwatch::since_process_start(std::chrono::milliseconds(5));
  auto model = std::make_unique<Model>();
  try {
    *model = hwaccel::nvml::load_model();
  } catch (...) {
    return NVML_ERROR_UNKNOWN;
  }
  // hwsim run --latency: the process has taken what it took on the recorded host
  // by the time init returns.
  if (hwaccel::LiveHost().env("HWSIM_LATENCY") == "1") started.wait_until_ms(model->init_ms);
  if (model->init_result != NVML_SUCCESS) return model->init_result;
  g_model = model.get();
  g_models->push_back(std::move(model));
  g_init_count = 1;
  return NVML_SUCCESS;
}

}  // namespace

const Model* ready_model() {
  std::lock_guard lock(g_mutex);
  return g_init_count > 0 ? g_model : nullptr;
}

// The Gpu a handle points at, or the error to return.
nvmlReturn_t gpu_of(nvmlDevice_t device, const Gpu*& gpu) {
  const Model* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  // A handle is one of this model's Gpus, compared as addresses: anything else (a
  // stale handle from before nvmlShutdown, garbage) is refused, never dereferenced.
  const auto at = reinterpret_cast<std::uintptr_t>(device);
  const auto first = reinterpret_cast<std::uintptr_t>(model->gpus.data());
  const auto bytes = model->gpus.size() * sizeof(Gpu);
  if (at < first || at - first >= bytes || (at - first) % sizeof(Gpu) != 0)
    return NVML_ERROR_INVALID_ARGUMENT;
  gpu = &model->gpus[(at - first) / sizeof(Gpu)];
  return NVML_SUCCESS;
}

nvmlDevice_t handle_of(const Gpu& gpu) {
  return reinterpret_cast<nvmlDevice_t>(const_cast<Gpu*>(&gpu));
}

namespace {
nvmlReturn_t copy_string(const std::string& text, char* out, unsigned int length) {
  if (!out) return NVML_ERROR_INVALID_ARGUMENT;
  if (text.size() + 1 > length) return NVML_ERROR_INSUFFICIENT_SIZE;
  std::memcpy(out, text.c_str(), text.size() + 1);
  return NVML_SUCCESS;
}

}  // namespace

bool parse_bus(const std::string& text, BusParts& parts) {
  char tail = 0;
  return std::sscanf(text.c_str(), "%x:%x:%x.%x%c", &parts.domain, &parts.bus, &parts.device,
                     &parts.function, &tail) == 4;
}

// "0000:1b:00.0", "00000000:1B:00.0" and "1b:00.0" all name the same function.
bool same_bus(const std::string& ours, const char* theirs) {
  BusParts a, b;
  if (!parse_bus(ours, a)) return false;
  std::string text = theirs;
  if (std::count(text.begin(), text.end(), ':') == 1) text = "0:" + text;
  if (!parse_bus(text, b)) return false;
  return a.domain == b.domain && a.bus == b.bus && a.device == b.device && a.function == b.function;
}

nvmlReturn_t fill_pci_of(const std::string& bus_id, std::uint16_t vendor, std::uint16_t device,
                         std::uint32_t subsystem, nvmlPciInfo_t* pci) {
  if (!pci) return NVML_ERROR_INVALID_ARGUMENT;
  BusParts parts;
  if (!parse_bus(bus_id, parts)) return NVML_ERROR_NOT_SUPPORTED;
  std::memset(pci, 0, sizeof *pci);
  std::snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.%X",
                parts.domain & 0xffff, parts.bus & 0xff, parts.device & 0x1f, parts.function & 7);
  std::snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.%X", parts.domain, parts.bus & 0xff,
                parts.device & 0x1f, parts.function & 7);
  pci->domain = parts.domain;
  pci->bus = parts.bus;
  pci->device = parts.device;
  pci->pciDeviceId = unsigned(device) << 16 | vendor;
  pci->pciSubSystemId = subsystem;
  return NVML_SUCCESS;
}

nvmlReturn_t fill_pci(const Gpu& gpu, nvmlPciInfo_t* pci) {
  return fill_pci_of(gpu.bus_id, gpu.pci_vendor, gpu.pci_device, gpu.pci_subsystem.value_or(0),
                     pci);
}

const Gpu* whole_of(const Gpu* gpu) {
  const Model* model = ready_model();
  return gpu->is_mig && model ? &model->gpus[gpu->parent] : gpu;
}

namespace {

nvmlReturn_t nvlink_lane(nvmlDevice_t device, unsigned int link,
                         const hwaccel::nvml::NvLinkLane*& lane) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  gpu = whole_of(gpu);
  if (gpu->nvlinks.empty()) return NVML_ERROR_NOT_SUPPORTED;
  if (link >= NVML_NVLINK_MAX_LINKS) return NVML_ERROR_INVALID_ARGUMENT;
  lane = link < gpu->nvlinks.size() ? &gpu->nvlinks[link] : nullptr;
  return NVML_SUCCESS;
}

unsigned nvlink_version_of(const Gpu& gpu) {
  switch (hwaccel::nvml::architecture_of(gpu)) {
    case NVML_DEVICE_ARCH_PASCAL:
      return 1;
    case NVML_DEVICE_ARCH_VOLTA:
      return 2;
    case NVML_DEVICE_ARCH_AMPERE:
      return 3;
    case NVML_DEVICE_ARCH_HOPPER:
      return 4;
    case NVML_DEVICE_ARCH_BLACKWELL:
      return 5;
    default:
      return 0;
  }
}

}  // namespace
}  // namespace hwaccel::nvml::api

using namespace hwaccel::nvml::api;
using hwaccel::nvml::Gpu;
using hwaccel::nvml::Model;

// ---- init, shutdown, errors
NVML_API nvmlReturn_t nvmlInit_v2() {
  return init();
}
NVML_API nvmlReturn_t nvmlInit() {
  return init();
}
NVML_API nvmlReturn_t nvmlInitWithFlags(unsigned int /*flags*/) {
  return init();
}

NVML_API nvmlReturn_t nvmlShutdown() {
  std::lock_guard lock(g_mutex);
  if (g_init_count == 0) return NVML_ERROR_UNINITIALIZED;
  if (--g_init_count == 0) g_model = nullptr;
  return NVML_SUCCESS;
}

NVML_API const char* nvmlErrorString(nvmlReturn_t result) {
  switch (result) {
    case NVML_SUCCESS:
      return "Success";
    case NVML_ERROR_UNINITIALIZED:
      return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT:
      return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED:
      return "Not Supported";
    case NVML_ERROR_NO_PERMISSION:
      return "Insufficient Permissions";
    case NVML_ERROR_ALREADY_INITIALIZED:
      return "Already Initialized";
    case NVML_ERROR_NOT_FOUND:
      return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE:
      return "Insufficient Size";
    case NVML_ERROR_INSUFFICIENT_POWER:
      return "Insufficient External Power";
    case NVML_ERROR_DRIVER_NOT_LOADED:
      return "Driver Not Loaded";
    case NVML_ERROR_TIMEOUT:
      return "Timeout";
    case NVML_ERROR_IRQ_ISSUE:
      return "Interrupt Request Issue";
    case NVML_ERROR_LIBRARY_NOT_FOUND:
      return "NVML Shared Library Not Found";
    case NVML_ERROR_FUNCTION_NOT_FOUND:
      return "Function Not Found";
    case NVML_ERROR_CORRUPTED_INFOROM:
      return "Corrupted infoROM";
    case NVML_ERROR_GPU_IS_LOST:
      return "GPU is lost";
    case NVML_ERROR_RESET_REQUIRED:
      return "GPU requires restart";
    case NVML_ERROR_OPERATING_SYSTEM:
      return "The operating system has blocked the request";
    case NVML_ERROR_LIB_RM_VERSION_MISMATCH:
      return "Driver/library version mismatch";
    case NVML_ERROR_IN_USE:
      return "In use by another client";
    case NVML_ERROR_MEMORY:
      return "Insufficient Memory";
    case NVML_ERROR_NO_DATA:
      return "No data";
    case NVML_ERROR_VGPU_ECC_NOT_SUPPORTED:
      return "vGPU ECC not supported";
    case NVML_ERROR_INSUFFICIENT_RESOURCES:
      return "Insufficient resources";
    case NVML_ERROR_FREQ_NOT_SUPPORTED:
      return "Frequency not supported";
    case NVML_ERROR_ARGUMENT_VERSION_MISMATCH:
      return "Argument version mismatch";
    case NVML_ERROR_DEPRECATED:
      return "Deprecated";
    case NVML_ERROR_NOT_READY:
      return "Not ready";
    case NVML_ERROR_GPU_NOT_FOUND:
      return "GPU not found";
    case NVML_ERROR_INVALID_STATE:
      return "Invalid state";
    default:
      return "Unknown Error";
  }
}

// ---- system
NVML_API nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned int length) {
  const Model* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  return copy_string(model->driver_version, version, length);
}

NVML_API nvmlReturn_t nvmlSystemGetNVMLVersion(char* version, unsigned int length) {
  const Model* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  return copy_string(hwaccel::nvml::nvml_version_of(*model), version, length);
}

NVML_API nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int* version) {
  if (!version) return NVML_ERROR_INVALID_ARGUMENT;
  const Model* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  if (!model->cuda_driver_version) return NVML_ERROR_NOT_SUPPORTED;
  *version = *model->cuda_driver_version;
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlSystemGetCudaDriverVersion(int* version) {
  return nvmlSystemGetCudaDriverVersion_v2(version);
}

// ---- enumeration
NVML_API nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* count) {
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  const Model* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  *count = static_cast<unsigned>(model->whole_gpus);
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetCount(unsigned int* count) {
  return nvmlDeviceGetCount_v2(count);
}

NVML_API nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {
  if (!device) return NVML_ERROR_INVALID_ARGUMENT;
  const Model* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  if (index >= model->whole_gpus) return NVML_ERROR_INVALID_ARGUMENT;
  *device = handle_of(model->gpus[index]);
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t* device) {
  return nvmlDeviceGetHandleByIndex_v2(index, device);
}

NVML_API nvmlReturn_t nvmlDeviceGetHandleByUUID(const char* uuid, nvmlDevice_t* device) {
  if (!uuid || !device) return NVML_ERROR_INVALID_ARGUMENT;
  const Model* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  for (const auto& gpu : model->gpus)
    if (!gpu.uuid.empty() && gpu.uuid == uuid) {
      *device = handle_of(gpu);
      return NVML_SUCCESS;
    }
  return NVML_ERROR_NOT_FOUND;
}

NVML_API nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, nvmlDevice_t* device) {
  if (!bus_id || !device) return NVML_ERROR_INVALID_ARGUMENT;
  const Model* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  for (std::size_t i = 0; i < model->whole_gpus; ++i)
    if (same_bus(model->gpus[i].bus_id, bus_id)) {
      *device = handle_of(model->gpus[i]);
      return NVML_SUCCESS;
    }
  return NVML_ERROR_NOT_FOUND;
}
NVML_API nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char* bus_id, nvmlDevice_t* device) {
  return nvmlDeviceGetHandleByPciBusId_v2(bus_id, device);
}

// Serial numbers come from a recorded `nvidia-smi -q` (redacted recordings have none).
NVML_API nvmlReturn_t nvmlDeviceGetHandleBySerial(const char* serial, nvmlDevice_t* device) {
  if (!serial || !device) return NVML_ERROR_INVALID_ARGUMENT;
  const Model* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  for (std::size_t i = 0; i < model->whole_gpus; ++i)
    if (!model->gpus[i].q.serial.empty() && model->gpus[i].q.serial == serial) {
      *device = handle_of(model->gpus[i]);
      return NVML_SUCCESS;
    }
  return NVML_ERROR_NOT_FOUND;
}

// ---- identity
NVML_API nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char* name, unsigned int length) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  return copy_string(gpu->name, name, length);
}

NVML_API nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char* uuid, unsigned int length) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (gpu->uuid.empty()) return NVML_ERROR_NOT_SUPPORTED;
  return copy_string(gpu->uuid, uuid, length);
}

NVML_API nvmlReturn_t nvmlDeviceGetSerial(nvmlDevice_t device, char* serial, unsigned int length) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!serial) return NVML_ERROR_INVALID_ARGUMENT;
  gpu = whole_of(gpu);
  if (gpu->q.serial.empty()) return NVML_ERROR_NOT_SUPPORTED;
  return copy_string(gpu->q.serial, serial, length);
}

NVML_API nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int* index) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!index) return NVML_ERROR_INVALID_ARGUMENT;
  *index = whole_of(gpu)->index;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetBrand(nvmlDevice_t device, int* brand) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!brand) return NVML_ERROR_INVALID_ARGUMENT;
  *brand = hwaccel::nvml::brand_of(*whole_of(gpu));
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetArchitecture(nvmlDevice_t device, unsigned int* arch) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!arch) return NVML_ERROR_INVALID_ARGUMENT;
  *arch = hwaccel::nvml::architecture_of(*gpu);
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int* major,
                                                         int* minor) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!major || !minor) return NVML_ERROR_INVALID_ARGUMENT;
  if (!gpu->cc_major) return NVML_ERROR_NOT_SUPPORTED;
  *major = *gpu->cc_major;
  *minor = gpu->cc_minor.value_or(0);
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned int* minor) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!minor) return NVML_ERROR_INVALID_ARGUMENT;
  if (!gpu->minor_number) return NVML_ERROR_NOT_SUPPORTED;
  *minor = *gpu->minor_number;
  return NVML_SUCCESS;
}

// ---- PCI
NVML_API nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t* pci) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  return fill_pci(*gpu, pci);
}
NVML_API nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t device, nvmlPciInfo_t* pci) {
  return nvmlDeviceGetPciInfo_v3(device, pci);
}
// The extended layout adds the PCI class (sysfs `class`: 0x0302 a 3D controller).
NVML_API nvmlReturn_t nvmlDeviceGetPciInfoExt(nvmlDevice_t device, nvmlPciInfoExt_t* pci) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!pci) return NVML_ERROR_INVALID_ARGUMENT;
  if (pci->version != nvmlPciInfoExt_v1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  gpu = whole_of(gpu);
  if (!gpu->pci_class) return NVML_ERROR_NOT_SUPPORTED;
  nvmlPciInfo_t full;
  if (auto r = fill_pci(*gpu, &full)) return r;
  pci->domain = full.domain;
  pci->bus = full.bus;
  pci->device = full.device;
  pci->pciDeviceId = full.pciDeviceId;
  pci->pciSubSystemId = full.pciSubSystemId;
  pci->baseClass = *gpu->pci_class >> 8;
  pci->subClass = *gpu->pci_class & 0xff;
  std::memcpy(pci->busId, full.busId, sizeof pci->busId);
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetPciInfo(nvmlDevice_t device, nvmlPciInfo_v1_t* pci) {
  if (!pci) return NVML_ERROR_INVALID_ARGUMENT;
  nvmlPciInfo_t full;
  if (auto r = nvmlDeviceGetPciInfo_v3(device, &full)) return r;
  std::memset(pci, 0, sizeof *pci);
  std::memcpy(pci->busId, full.busIdLegacy, sizeof pci->busId);
  pci->domain = full.domain;
  pci->bus = full.bus;
  pci->device = full.device;
  pci->pciDeviceId = full.pciDeviceId;
  pci->pciSubSystemId = full.pciSubSystemId;
  return NVML_SUCCESS;
}

// ---- memory
NVML_API nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t* memory) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!memory) return NVML_ERROR_INVALID_ARGUMENT;
  // GB10 and the like: no framebuffer of their own, the real library says so too.
  if (gpu->unified_memory || !gpu->memory_total) return NVML_ERROR_NOT_SUPPORTED;
  memory->total = *gpu->memory_total;
  memory->free = std::min<unsigned long long>(gpu->memory_free.value_or(0), memory->total);
  memory->used = memory->total - memory->free;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t* memory) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!memory) return NVML_ERROR_INVALID_ARGUMENT;
  if (memory->version != nvmlMemory_v2) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  nvmlMemory_t v1;
  if (auto r = nvmlDeviceGetMemoryInfo(device, &v1)) return r;
  // v1's used includes what the driver reserves; v2 counts it apart.
  memory->total = v1.total;
  memory->reserved = std::min<unsigned long long>(gpu->memory_reserved.value_or(0), v1.used);
  memory->free = v1.free;
  memory->used = v1.used - memory->reserved;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetBAR1MemoryInfo(nvmlDevice_t device, nvmlBAR1Memory_t* bar1) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!bar1) return NVML_ERROR_INVALID_ARGUMENT;
  const auto& q = whole_of(gpu)->q;
  if (gpu->is_mig || !q.bar1_total || !q.bar1_free) return NVML_ERROR_NOT_SUPPORTED;
  bar1->bar1Total = *q.bar1_total;
  bar1->bar1Free = *q.bar1_free;
  bar1->bar1Used = q.bar1_used.value_or(*q.bar1_total - std::min(*q.bar1_total, *q.bar1_free));
  return NVML_SUCCESS;
}

// ---- NUMA and CPU affinity
NVML_API nvmlReturn_t nvmlDeviceGetNumaNodeId(nvmlDevice_t device, unsigned int* node) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!node) return NVML_ERROR_INVALID_ARGUMENT;
  if (!gpu->numa_node || *gpu->numa_node < 0) return NVML_ERROR_NOT_SUPPORTED;
  *node = static_cast<unsigned>(*gpu->numa_node);
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetCpuAffinityWithinScope(nvmlDevice_t device, unsigned int size,
                                                          unsigned long* set, int /*scope*/) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!set || size == 0) return NVML_ERROR_INVALID_ARGUMENT;
  if (gpu->cpus.empty()) return NVML_ERROR_NOT_SUPPORTED;
  constexpr unsigned bits = sizeof(unsigned long) * 8;
  std::memset(set, 0, size * sizeof(unsigned long));
  for (unsigned cpu : gpu->cpus)
    if (cpu / bits < size) set[cpu / bits] |= 1ul << (cpu % bits);
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetCpuAffinity(nvmlDevice_t device, unsigned int size,
                                               unsigned long* set) {
  return nvmlDeviceGetCpuAffinityWithinScope(device, size, set, NVML_AFFINITY_SCOPE_NODE);
}

// The NUMA node nearest the GPU (topo -m's "NUMA Affinity"): one bit.
NVML_API nvmlReturn_t nvmlDeviceGetMemoryAffinity(nvmlDevice_t device, unsigned int size,
                                                  unsigned long* set, int /*scope*/) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!set || size == 0) return NVML_ERROR_INVALID_ARGUMENT;
  if (!gpu->numa_node || *gpu->numa_node < 0) return NVML_ERROR_NOT_SUPPORTED;
  constexpr unsigned bits = sizeof(unsigned long) * 8;
  const unsigned node = static_cast<unsigned>(*gpu->numa_node);
  if (node / bits >= size) return NVML_ERROR_INSUFFICIENT_SIZE;
  std::memset(set, 0, size * sizeof(unsigned long));
  set[node / bits] |= 1ul << (node % bits);
  return NVML_SUCCESS;
}

// Temperature, power, clocks, utilisation, modes: nvml_monitor_api.cpp.

// ---- MIG
NVML_API nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int* current,
                                           unsigned int* pending) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!current || !pending) return NVML_ERROR_INVALID_ARGUMENT;
  if (gpu->is_mig || !gpu->mig_capable) return NVML_ERROR_NOT_SUPPORTED;
  *current = *pending = gpu->mig_enabled ? NVML_DEVICE_MIG_ENABLE : NVML_DEVICE_MIG_DISABLE;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t device, unsigned int* count) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  if (gpu->is_mig || !gpu->mig_capable) return NVML_ERROR_NOT_SUPPORTED;
  // A30 splits into 4 at most, the rest of the family into 7.
  *count = gpu->name.find("A30") != std::string::npos ? 4 : 7;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t device, unsigned int index,
                                                          nvmlDevice_t* mig) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!mig) return NVML_ERROR_INVALID_ARGUMENT;
  if (gpu->is_mig || !gpu->mig_capable) return NVML_ERROR_NOT_SUPPORTED;
  if (!gpu->mig_enabled) return NVML_ERROR_INVALID_ARGUMENT;
  if (index >= gpu->mig_devices.size()) return NVML_ERROR_NOT_FOUND;
  *mig = handle_of(ready_model()->gpus[gpu->mig_devices[index]]);
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceIsMigDeviceHandle(nvmlDevice_t device, unsigned int* is_mig) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!is_mig) return NVML_ERROR_INVALID_ARGUMENT;
  *is_mig = gpu->is_mig ? 1 : 0;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetDeviceHandleFromMigDeviceHandle(nvmlDevice_t mig,
                                                                   nvmlDevice_t* device) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(mig, gpu)) return r;
  if (!device || !gpu->is_mig) return NVML_ERROR_INVALID_ARGUMENT;
  *device = handle_of(*whole_of(gpu));
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetGpuInstanceId(nvmlDevice_t device, unsigned int* id) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!id) return NVML_ERROR_INVALID_ARGUMENT;
  if (!gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  if (!gpu->gpu_instance_id) return NVML_ERROR_NOT_SUPPORTED;  // only -L recorded
  *id = *gpu->gpu_instance_id;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetComputeInstanceId(nvmlDevice_t device, unsigned int* id) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!id) return NVML_ERROR_INVALID_ARGUMENT;
  if (!gpu->is_mig || !gpu->compute_instance_id) return NVML_ERROR_NOT_SUPPORTED;
  *id = *gpu->compute_instance_id;
  return NVML_SUCCESS;
}

// ---- NVLink and topology
NVML_API nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link,
                                               int* active) {
  if (!active) return NVML_ERROR_INVALID_ARGUMENT;
  const hwaccel::nvml::NvLinkLane* lane = nullptr;
  if (auto r = nvlink_lane(device, link, lane)) return r;
  *active = lane ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetNvLinkVersion(nvmlDevice_t device, unsigned int link,
                                                 unsigned int* version) {
  if (!version) return NVML_ERROR_INVALID_ARGUMENT;
  const hwaccel::nvml::NvLinkLane* lane = nullptr;
  if (auto r = nvlink_lane(device, link, lane)) return r;
  const Gpu* gpu = nullptr;
  gpu_of(device, gpu);
  unsigned v = nvlink_version_of(*whole_of(gpu));
  if (!lane || v == 0) return NVML_ERROR_NOT_SUPPORTED;
  *version = v;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_t device, unsigned int link,
                                                          int* type) {
  if (!type) return NVML_ERROR_INVALID_ARGUMENT;
  const hwaccel::nvml::NvLinkLane* lane = nullptr;
  if (auto r = nvlink_lane(device, link, lane)) return r;
  if (!lane) return NVML_ERROR_NOT_SUPPORTED;
  *type = lane->to_switch ? NVML_NVLINK_DEVICE_TYPE_SWITCH : NVML_NVLINK_DEVICE_TYPE_GPU;
  return NVML_SUCCESS;
}

// The far end's PCI function: the peer GPU's, or the NVSwitch's where the snapshot's
// bus shows the switches (NOT_SUPPORTED where it does not).
NVML_API nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t device, unsigned int link,
                                                          nvmlPciInfo_t* pci) {
  if (!pci) return NVML_ERROR_INVALID_ARGUMENT;
  const hwaccel::nvml::NvLinkLane* lane = nullptr;
  if (auto r = nvlink_lane(device, link, lane)) return r;
  if (!lane) return NVML_ERROR_NOT_SUPPORTED;
  const Model* model = ready_model();
  if (!lane->to_switch) return fill_pci(model->gpus[lane->remote], pci);
  if (lane->remote >= model->switches.size()) return NVML_ERROR_NOT_SUPPORTED;
  const auto& sw = model->switches[lane->remote];
  return fill_pci_of(sw.bus_id, 0x10de, sw.pci_device, 0, pci);
}
NVML_API nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo(nvmlDevice_t device, unsigned int link,
                                                       nvmlPciInfo_v1_t* pci) {
  if (!pci) return NVML_ERROR_INVALID_ARGUMENT;
  nvmlPciInfo_t full;
  if (auto r = nvmlDeviceGetNvLinkRemotePciInfo_v2(device, link, &full)) return r;
  std::memset(pci, 0, sizeof *pci);
  std::memcpy(pci->busId, full.busIdLegacy, sizeof pci->busId);
  pci->domain = full.domain;
  pci->bus = full.bus;
  pci->device = full.device;
  pci->pciDeviceId = full.pciDeviceId;
  pci->pciSubSystemId = full.pciSubSystemId;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t device1,
                                                          nvmlDevice_t device2, int* level) {
  const Gpu *a = nullptr, *b = nullptr;
  if (auto r = gpu_of(device1, a)) return r;
  if (auto r = gpu_of(device2, b)) return r;
  if (!level) return NVML_ERROR_INVALID_ARGUMENT;
  a = whole_of(a);
  b = whole_of(b);
  if (a == b) {
    *level = NVML_TOPOLOGY_INTERNAL;
    return NVML_SUCCESS;
  }
  const Model* model = ready_model();
  auto it = model->pcie_paths.find(
      {std::size_t(a - model->gpus.data()), std::size_t(b - model->gpus.data())});
  if (it != model->pcie_paths.end()) {
    const std::string& p = it->second;
    if (p == "PIX")
      *level = NVML_TOPOLOGY_SINGLE;
    else if (p == "PXB")
      *level = NVML_TOPOLOGY_MULTIPLE;
    else if (p == "PHB")
      *level = NVML_TOPOLOGY_HOSTBRIDGE;
    else if (p == "NODE")
      *level = NVML_TOPOLOGY_NODE;
    else
      *level = NVML_TOPOLOGY_SYSTEM;
    return NVML_SUCCESS;
  }
  // No PCIe path recorded (NVLink pairs): the NUMA nodes still tell NODE from SYSTEM.
  if (!a->numa_node || !b->numa_node) return NVML_ERROR_NOT_SUPPORTED;
  *level = *a->numa_node == *b->numa_node ? NVML_TOPOLOGY_NODE : NVML_TOPOLOGY_SYSTEM;
  return NVML_SUCCESS;
}

// ---- addressing and C2C: from the addressing-mode query or -q (driver 580 on)
NVML_API nvmlReturn_t nvmlDeviceGetAddressingMode(nvmlDevice_t device,
                                                  nvmlDeviceAddressingMode_t* mode) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!mode) return NVML_ERROR_INVALID_ARGUMENT;
  if (mode->version != nvmlDeviceAddressingMode_v1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (!gpu->addressing_mode) return NVML_ERROR_NOT_SUPPORTED;  // not recorded, or before 580
  mode->value = *gpu->addressing_mode;
  return NVML_SUCCESS;
}
// NVLink-C2C joins the GPU to a Grace CPU: ATS addressing (GH200) or memory shared
// with the host (GB10) says it is on; a GPU with neither is a PCIe one.
NVML_API nvmlReturn_t nvmlDeviceGetC2cModeInfoV(nvmlDevice_t device, nvmlC2cModeInfo_v1_t* info) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!info) return NVML_ERROR_INVALID_ARGUMENT;
  gpu = whole_of(gpu);
  if (gpu->unified_memory || gpu->addressing_mode == NVML_DEVICE_ADDRESSING_MODE_ATS) {
    info->isC2cEnabled = 1;
  } else if (gpu->addressing_mode) {
    info->isC2cEnabled = 0;
  } else {
    return NVML_ERROR_NOT_SUPPORTED;
  }
  return NVML_SUCCESS;
}
