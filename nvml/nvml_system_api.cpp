// NVML's system-wide calls beyond the device getters (docs/nvml.md, "Health,
// fabric and system calls"): system event sets (driver bind/unbind, driver 575 on)
// on a simulated host where no driver is ever bound or unbound, so a wait ends in
// its timeout as on a quiet real host; Host Interface Cards (S-class units only:
// none); the versioned UUID lookup; and whether a GPU supports GPM metrics.
#include <cstring>
#include <mutex>
#include <set>
#include <string_view>

#include "nvml/nvml_abi.h"
#include "nvml/nvml_abi_v13.h"
#include "nvml/nvml_api_internal.h"
#include "nvml/nvml_model.h"
#include "src/host/stopwatch.h"

using namespace hwaccel::nvml::api;
using hwaccel::nvml::Gpu;

namespace {
namespace sys {  // named apart: the library's files share one unity batch

// System event sets this library made (compared as addresses, never dereferenced
// before they are found). Leaked on purpose: no destructor runs at exit.
std::mutex g_mutex;
std::set<const void*>* g_sets = new std::set<const void*>;

bool known(nvmlSystemEventSet_t set) {
  std::lock_guard lock(g_mutex);
  return g_sets->count(set.handle) > 0;
}

}  // namespace sys
}  // namespace

// ---- system events: nothing is bound or unbound on a simulated host
NVML_API nvmlReturn_t nvmlSystemEventSetCreate(nvmlSystemEventSetCreateRequest_t* request) {
  if (!ready_model()) return NVML_ERROR_UNINITIALIZED;
  if (!request) return NVML_ERROR_INVALID_ARGUMENT;
  if (request->version != nvmlSystemEventSetCreateRequest_v1)
    return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  auto* made = reinterpret_cast<nvmlSystemEventSet_st*>(new char(0));
  std::lock_guard lock(sys::g_mutex);
  sys::g_sets->insert(made);
  request->set.handle = made;
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlSystemEventSetFree(nvmlSystemEventSetFreeRequest_t* request) {
  if (!ready_model()) return NVML_ERROR_UNINITIALIZED;
  if (!request) return NVML_ERROR_INVALID_ARGUMENT;
  if (request->version != nvmlSystemEventSetFreeRequest_v1)
    return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  std::lock_guard lock(sys::g_mutex);
  if (!sys::g_sets->erase(request->set.handle)) return NVML_ERROR_INVALID_ARGUMENT;
  delete reinterpret_cast<char*>(request->set.handle);
  return NVML_SUCCESS;
}
// Bind and unbind are the two system events nvml.h defines; both are recorded.
NVML_API nvmlReturn_t nvmlSystemRegisterEvents(nvmlSystemRegisterEventRequest_t* request) {
  if (!ready_model()) return NVML_ERROR_UNINITIALIZED;
  if (!request) return NVML_ERROR_INVALID_ARGUMENT;
  if (request->version != nvmlSystemRegisterEventRequest_v1)
    return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (!sys::known(request->set)) return NVML_ERROR_INVALID_ARGUMENT;
  if (request->eventTypes &
      ~(nvmlSystemEventTypeGpuDriverUnbind | nvmlSystemEventTypeGpuDriverBind))
    return NVML_ERROR_NOT_SUPPORTED;
  return NVML_SUCCESS;
}
// No event ever arrives: the wait sleeps its timeout (none at 0) and times out.
NVML_API nvmlReturn_t nvmlSystemEventSetWait(nvmlSystemEventSetWaitRequest_t* request) {
  if (!ready_model()) return NVML_ERROR_UNINITIALIZED;
  if (!request) return NVML_ERROR_INVALID_ARGUMENT;
  if (request->version != nvmlSystemEventSetWaitRequest_v1)
    return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (!sys::known(request->set)) return NVML_ERROR_INVALID_ARGUMENT;
  request->numEvent = 0;
  hwaccel::Stopwatch().wait_until_ms(request->timeoutms);
  return NVML_ERROR_TIMEOUT;
}

// Host Interface Cards belong to S-class units, which a host of PCIe or SXM GPUs
// does not have (nvmlUnitGetCount: 0): an empty list, whatever the buffer.
NVML_API nvmlReturn_t nvmlSystemGetHicVersion(unsigned* count, nvmlHwbcEntry_t* /*entries*/) {
  if (!ready_model()) return NVML_ERROR_UNINITIALIZED;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  *count = 0;
  return NVML_SUCCESS;
}

// A GPU's or MIG device's UUID as text (nvmlDeviceGetHandleByUUID) or as its 16 bytes.
NVML_API nvmlReturn_t nvmlDeviceGetHandleByUUIDV(const nvmlUUID_t* uuid, nvmlDevice_t* device) {
  const auto* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  if (!uuid || !device) return NVML_ERROR_INVALID_ARGUMENT;
  if (uuid->version != nvmlUUID_v1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (uuid->type == NVML_UUID_TYPE_ASCII) {
    const std::string_view text(uuid->value.str, strnlen(uuid->value.str, sizeof uuid->value.str));
    if (text.size() == sizeof uuid->value.str) return NVML_ERROR_INVALID_ARGUMENT;  // no NUL
    for (const auto& gpu : model->gpus)
      if (!gpu.uuid.empty() && gpu.uuid == text) {
        *device = handle_of(gpu);
        return NVML_SUCCESS;
      }
    return NVML_ERROR_NOT_FOUND;
  }
  if (uuid->type != NVML_UUID_TYPE_BINARY) return NVML_ERROR_INVALID_ARGUMENT;
  for (const auto& gpu : model->gpus) {
    unsigned char bytes[16] = {};
    if (uuid_bytes(gpu.uuid, bytes) && std::memcmp(bytes, uuid->value.bytes, 16) == 0) {
      *device = handle_of(gpu);
      return NVML_SUCCESS;
    }
  }
  return NVML_ERROR_NOT_FOUND;
}

// GPM (GPU performance monitoring) is a Hopper-and-later feature: an older GPU is
// answered "not supported" (isSupportedDevice 0) as the real library answers it. A
// Hopper or later GPU would say 1, but its GPM samples cannot be answered from a
// snapshot, so the query fails there rather than promise them.
NVML_API nvmlReturn_t nvmlGpmQueryDeviceSupport(nvmlDevice_t device, nvmlGpmSupport_t* support) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!support) return NVML_ERROR_INVALID_ARGUMENT;
  if (support->version != NVML_GPM_SUPPORT_VERSION) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  const unsigned arch = hwaccel::nvml::architecture_of(*whole_of(gpu));
  if (arch == NVML_DEVICE_ARCH_UNKNOWN || arch >= NVML_DEVICE_ARCH_HOPPER)
    return NVML_ERROR_NOT_SUPPORTED;
  support->isSupportedDevice = 0;
  return NVML_SUCCESS;
}
