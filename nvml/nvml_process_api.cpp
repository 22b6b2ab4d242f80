// NVML's process, sample, event, unit and topology-set calls (docs/nvml.md,
// "Processes, samples and events"). A simulated host runs nothing on its GPUs:
// the compute processes are those a recorded --query-compute-apps listed (none
// where nothing was recorded), graphics and MPS lists are empty, and no event
// ever arrives (a wait lasts its timeout). Samples are the recorded figures,
// stamped with the snapshot's time.
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "nvml/nvml_abi.h"
#include "nvml/nvml_abi_monitor.h"
#include "nvml/nvml_api_internal.h"
#include "nvml/nvml_fields.h"
#include "nvml/nvml_model.h"
#include "src/host/stopwatch.h"

using namespace hwaccel::nvml::api;
using hwaccel::nvml::Gpu;
using hwaccel::nvml::Model;
using hwaccel::RecordedProcess;

namespace {

constexpr unsigned kNoInstance = 0xffffffffu;             // a process on a GPU not in MIG mode
constexpr unsigned long long kValueNotAvailable = ~0ull;  // NVML_VALUE_NOT_AVAILABLE

// No graphics or MPS process is ever recorded: the list is empty, whatever the buffer.
nvmlReturn_t no_processes(nvmlDevice_t device, unsigned* count) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  *count = 0;
  return NVML_SUCCESS;
}

// The recorded compute processes, as the real call fills the caller's buffer: all
// of them, or INSUFFICIENT_SIZE with the count needed (pynvml's size query asks
// with a count of 0). A MIG device has none recorded of its own.
template <typename Info>
nvmlReturn_t compute_processes(nvmlDevice_t device, unsigned* count, Info* infos) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  const std::vector<RecordedProcess> none;
  const auto& list = gpu->is_mig ? none : gpu->processes;
  if (*count < list.size() || (!infos && !list.empty())) {
    *count = static_cast<unsigned>(list.size());
    return NVML_ERROR_INSUFFICIENT_SIZE;
  }
  *count = static_cast<unsigned>(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    Info info{};
    info.pid = list[i].pid;
    info.usedGpuMemory = list[i].used_bytes.value_or(kValueNotAvailable);
    if constexpr (requires { info.gpuInstanceId; }) {
      info.gpuInstanceId = kNoInstance;
      info.computeInstanceId = kNoInstance;
    }
    infos[i] = info;
  }
  return NVML_SUCCESS;
}

// Event sets: handles this library made (compared as addresses, never dereferenced
// before they are found), each with the event types registered on it.
std::mutex g_events_mutex;
std::set<const void*>* g_event_sets = new std::set<const void*>;

bool is_event_set(nvmlEventSet_t set) {
  std::lock_guard lock(g_events_mutex);
  return g_event_sets->count(set) > 0;
}

// Every GPU reports Xid errors; ECC events where ECC is on (the recorded mode).
unsigned long long supported_events(const Gpu& gpu) {
  unsigned long long types = nvmlEventTypeXidCriticalError;
  auto ecc = hwaccel::nvml::field_of(gpu.cells, "ecc.mode.current");
  if (ecc.status == NVML_SUCCESS && hwaccel::nvml::cell_flag(ecc.text) == 1u)
    types |= nvmlEventTypeSingleBitEccError | nvmlEventTypeDoubleBitEccError;
  return types;
}

// The field each NVML sample type is (GetSamples).
const char* sample_field(int type) {
  switch (type) {
    case NVML_TOTAL_POWER_SAMPLES:
      return "power";
    case NVML_GPU_UTILIZATION_SAMPLES:
      return "utilization.gpu";
    case NVML_MEMORY_UTILIZATION_SAMPLES:
      return "utilization.memory";
    case NVML_ENC_UTILIZATION_SAMPLES:
      return "utilization.encoder";
    case NVML_DEC_UTILIZATION_SAMPLES:
      return "utilization.decoder";
    case NVML_PROCESSOR_CLK_SAMPLES:
      return "clocks.current.graphics";
    case NVML_MEMORY_CLK_SAMPLES:
      return "clocks.current.memory";
    case NVML_MODULE_POWER_SAMPLES:
      return "module.power.draw.instant";
    case NVML_JPG_UTILIZATION_SAMPLES:
      return "utilization.jpeg";
    case NVML_OFA_UTILIZATION_SAMPLES:
      return "utilization.ofa";
    default:
      return nullptr;
  }
}

// GPUs (whole, in index order) that `keep` accepts, as NVML's count-then-fill calls
// give them: a zero count asks how many.
template <typename Keep>
nvmlReturn_t gpu_set(unsigned* count, nvmlDevice_t* out, Keep keep) {
  const Model* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  std::vector<nvmlDevice_t> found;
  for (std::size_t i = 0; i < model->whole_gpus; ++i)
    if (keep(model->gpus[i])) found.push_back(handle_of(model->gpus[i]));
  if (*count == 0) {
    *count = static_cast<unsigned>(found.size());
    return NVML_SUCCESS;
  }
  if (!out) return NVML_ERROR_INVALID_ARGUMENT;
  const unsigned n = std::min<unsigned>(*count, static_cast<unsigned>(found.size()));
  std::copy(found.begin(), found.begin() + n, out);
  *count = n;
  return NVML_SUCCESS;
}

}  // namespace

// ---- processes
NVML_API nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t device, unsigned* count,
                                                           nvmlProcessInfo_v1_t* infos) {
  return compute_processes(device, count, infos);
}
NVML_API nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t device, unsigned* count,
                                                              nvmlProcessInfo_t* infos) {
  return compute_processes(device, count, infos);
}
NVML_API nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned* count,
                                                              nvmlProcessInfo_t* infos) {
  return compute_processes(device, count, infos);
}
NVML_API nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses(nvmlDevice_t device, unsigned* count,
                                                            nvmlProcessInfo_v1_t*) {
  return no_processes(device, count);
}
NVML_API nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v2(nvmlDevice_t device, unsigned* count,
                                                               nvmlProcessInfo_t*) {
  return no_processes(device, count);
}
NVML_API nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t device, unsigned* count,
                                                               nvmlProcessInfo_t*) {
  return no_processes(device, count);
}
NVML_API nvmlReturn_t nvmlDeviceGetMPSComputeRunningProcesses(nvmlDevice_t device, unsigned* count,
                                                              nvmlProcessInfo_v1_t*) {
  return no_processes(device, count);
}
NVML_API nvmlReturn_t nvmlDeviceGetMPSComputeRunningProcesses_v2(nvmlDevice_t device,
                                                                 unsigned* count,
                                                                 nvmlProcessInfo_t*) {
  return no_processes(device, count);
}
NVML_API nvmlReturn_t nvmlDeviceGetMPSComputeRunningProcesses_v3(nvmlDevice_t device,
                                                                 unsigned* count,
                                                                 nvmlProcessInfo_t*) {
  return no_processes(device, count);
}
NVML_API nvmlReturn_t nvmlDeviceGetRunningProcessDetailList(nvmlDevice_t device,
                                                            nvmlProcessDetailList_t* list) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!list) return NVML_ERROR_INVALID_ARGUMENT;
  if (list->version != nvmlProcessDetailList_v1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (list->mode > 2) return NVML_ERROR_INVALID_ARGUMENT;
  if (list->mode != 0) {  // graphics, MPS: never recorded
    list->numProcArrayEntries = 0;
    return NVML_SUCCESS;
  }
  return compute_processes(device, &list->numProcArrayEntries, list->procArray);
}
// No process, no sample: NOT_FOUND, as the real library answers an idle GPU.
NVML_API nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t device,
                                                      nvmlProcessUtilizationSample_t*,
                                                      unsigned* count, unsigned long long) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  *count = 0;
  return NVML_ERROR_NOT_FOUND;
}
NVML_API nvmlReturn_t nvmlDeviceGetProcessesUtilizationInfo(nvmlDevice_t device,
                                                            nvmlProcessesUtilizationInfo_t* info) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!info) return NVML_ERROR_INVALID_ARGUMENT;
  if (info->version != nvmlProcessesUtilizationInfo_v1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  info->processSamplesCount = 0;
  return NVML_ERROR_NOT_FOUND;
}
// The name a recorded --query-compute-apps gave the pid (cut to the buffer, as
// the real call does); NOT_FOUND for any other pid.
NVML_API nvmlReturn_t nvmlSystemGetProcessName(unsigned pid, char* name, unsigned length) {
  const Model* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  if (!name || length == 0) return NVML_ERROR_INVALID_ARGUMENT;
  for (std::size_t i = 0; i < model->whole_gpus; ++i)
    for (const auto& p : model->gpus[i].processes)
      if (p.pid == pid && !p.name.empty()) {
        const std::size_t n = std::min<std::size_t>(p.name.size(), length - 1);
        std::memcpy(name, p.name.data(), n);
        name[n] = '\0';
        return NVML_SUCCESS;
      }
  return NVML_ERROR_NOT_FOUND;
}
NVML_API nvmlReturn_t nvmlDeviceGetAccountingPids(nvmlDevice_t device, unsigned* count,
                                                  unsigned* /*pids*/) {
  int mode = 0;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  if (auto r = nvmlDeviceGetAccountingMode(device, &mode)) return r;
  if (mode != NVML_FEATURE_ENABLED) return NVML_ERROR_NOT_SUPPORTED;
  *count = 0;
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetAccountingStats(nvmlDevice_t device, unsigned /*pid*/,
                                                   void* stats) {
  int mode = 0;
  if (!stats) return NVML_ERROR_INVALID_ARGUMENT;
  if (auto r = nvmlDeviceGetAccountingMode(device, &mode)) return r;
  return mode == NVML_FEATURE_ENABLED ? NVML_ERROR_NOT_FOUND : NVML_ERROR_NOT_SUPPORTED;
}

// ---- samples: the one recorded figure, at the snapshot's time
NVML_API nvmlReturn_t nvmlDeviceGetSamples(nvmlDevice_t device, int type,
                                           unsigned long long last_seen, int* value_type,
                                           unsigned* count, nvmlSample_t* samples) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  const char* field = sample_field(type);
  if (!field || !value_type || !count || (samples && *count == 0))
    return NVML_ERROR_INVALID_ARGUMENT;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  unsigned value = 0;
  nvmlReturn_t r = NVML_SUCCESS;
  if (type == NVML_TOTAL_POWER_SAMPLES) {
    r = nvmlDeviceGetPowerUsage(device, &value);
  } else {
    auto f = hwaccel::nvml::field_of(gpu->cells, field);
    auto v = f.status ? std::nullopt : hwaccel::nvml::cell_uint(f.text);
    if (type == NVML_MODULE_POWER_SAMPLES && !f.status) v = hwaccel::nvml::cell_milli(f.text);
    r = f.status ? f.status : v ? NVML_SUCCESS : NVML_ERROR_NOT_SUPPORTED;
    if (v) value = static_cast<unsigned>(*v);
  }
  if (r) return r;
  const Model* model = ready_model();
  if (!model->recorded_us) return NVML_ERROR_NOT_SUPPORTED;  // a figure without a time
  if (last_seen >= *model->recorded_us) return NVML_ERROR_NOT_FOUND;
  *value_type = NVML_VALUE_TYPE_UNSIGNED_INT;
  if (samples) {
    samples[0].timeStamp = *model->recorded_us;
    samples[0].sampleValue.ullVal = 0;
    samples[0].sampleValue.uiVal = value;
  }
  *count = 1;
  return NVML_SUCCESS;
}

// ---- events
NVML_API nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t* set) {
  if (!ready_model()) return NVML_ERROR_UNINITIALIZED;
  if (!set) return NVML_ERROR_INVALID_ARGUMENT;
  auto* made = reinterpret_cast<nvmlEventSet_t>(new char(0));
  std::lock_guard lock(g_events_mutex);
  g_event_sets->insert(made);
  *set = made;
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set) {
  if (!ready_model()) return NVML_ERROR_UNINITIALIZED;
  std::lock_guard lock(g_events_mutex);
  if (!g_event_sets->erase(set)) return NVML_ERROR_INVALID_ARGUMENT;
  delete reinterpret_cast<char*>(set);
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetSupportedEventTypes(nvmlDevice_t device,
                                                       unsigned long long* types) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!types) return NVML_ERROR_INVALID_ARGUMENT;
  *types = supported_events(*whole_of(gpu));
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t device, unsigned long long types,
                                               nvmlEventSet_t set) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!is_event_set(set)) return NVML_ERROR_INVALID_ARGUMENT;
  if (types & ~supported_events(*whole_of(gpu))) return NVML_ERROR_NOT_SUPPORTED;
  return NVML_SUCCESS;
}
// Nothing happens on a simulated GPU: every wait ends in its timeout.
NVML_API nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set, nvmlEventData_t* data,
                                          unsigned timeout_ms) {
  if (!ready_model()) return NVML_ERROR_UNINITIALIZED;
  if (!data || !is_event_set(set)) return NVML_ERROR_INVALID_ARGUMENT;
  hwaccel::Stopwatch().wait_until_ms(timeout_ms);
  return NVML_ERROR_TIMEOUT;
}
NVML_API nvmlReturn_t nvmlEventSetWait(nvmlEventSet_t set, nvmlEventData_t* data,
                                       unsigned timeout_ms) {
  return nvmlEventSetWait_v2(set, data, timeout_ms);
}

// ---- S-class units: a host of PCIe or SXM GPUs has none; no unit handle is valid
NVML_API nvmlReturn_t nvmlUnitGetCount(unsigned* count) {
  if (!ready_model()) return NVML_ERROR_UNINITIALIZED;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  *count = 0;
  return NVML_SUCCESS;
}
#define NVML_NO_UNIT(name, ...)                          \
  NVML_API nvmlReturn_t name(__VA_ARGS__) {              \
    if (!ready_model()) return NVML_ERROR_UNINITIALIZED; \
    return NVML_ERROR_INVALID_ARGUMENT;                  \
  }
NVML_NO_UNIT(nvmlUnitGetHandleByIndex, unsigned, nvmlUnit_t*)
NVML_NO_UNIT(nvmlUnitGetUnitInfo, nvmlUnit_t, void*)
NVML_NO_UNIT(nvmlUnitGetLedState, nvmlUnit_t, void*)
NVML_NO_UNIT(nvmlUnitGetPsuInfo, nvmlUnit_t, void*)
NVML_NO_UNIT(nvmlUnitGetTemperature, nvmlUnit_t, unsigned, unsigned*)
NVML_NO_UNIT(nvmlUnitGetFanSpeedInfo, nvmlUnit_t, void*)
NVML_NO_UNIT(nvmlUnitGetDevices, nvmlUnit_t, unsigned*, nvmlDevice_t*)

// ---- excluded GPUs (NVreg_ExcludedGpus): the snapshot's driver excludes none it shows
NVML_API nvmlReturn_t nvmlGetExcludedDeviceCount(unsigned* count) {
  if (!ready_model()) return NVML_ERROR_UNINITIALIZED;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  *count = 0;
  return NVML_SUCCESS;
}
NVML_NO_UNIT(nvmlGetExcludedDeviceInfoByIndex, unsigned, void*)

// ---- topology sets
NVML_API nvmlReturn_t nvmlDeviceGetTopologyNearestGpus(nvmlDevice_t device, int level,
                                                       unsigned* count, nvmlDevice_t* out) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  gpu = whole_of(gpu);
  if (level < NVML_TOPOLOGY_INTERNAL || level > NVML_TOPOLOGY_SYSTEM)
    return NVML_ERROR_INVALID_ARGUMENT;
  return gpu_set(count, out, [&](const Gpu& other) {
    int found = 0;
    return &other != gpu &&
           nvmlDeviceGetTopologyCommonAncestor(handle_of(*gpu), handle_of(other), &found) ==
               NVML_SUCCESS &&
           found <= level;
  });
}
NVML_API nvmlReturn_t nvmlSystemGetTopologyGpuSet(unsigned cpu, unsigned* count,
                                                  nvmlDevice_t* out) {
  return gpu_set(count, out, [&](const Gpu& gpu) {
    return std::find(gpu.cpus.begin(), gpu.cpus.end(), cpu) != gpu.cpus.end();
  });
}
// Two GPUs share a board where -q recorded both on one multi-GPU board of one id.
NVML_API nvmlReturn_t nvmlDeviceOnSameBoard(nvmlDevice_t a, nvmlDevice_t b, int* same) {
  const Gpu *x = nullptr, *y = nullptr;
  if (auto r = gpu_of(a, x)) return r;
  if (auto r = gpu_of(b, y)) return r;
  if (!same) return NVML_ERROR_INVALID_ARGUMENT;
  x = whole_of(x), y = whole_of(y);
  if (x == y) {
    *same = 1;
    return NVML_SUCCESS;
  }
  unsigned multi_x = 0, multi_y = 0, id_x = 0, id_y = 0;
  if (auto r = nvmlDeviceGetMultiGpuBoard(handle_of(*x), &multi_x)) return r;
  if (auto r = nvmlDeviceGetMultiGpuBoard(handle_of(*y), &multi_y)) return r;
  if (auto r = nvmlDeviceGetBoardId(handle_of(*x), &id_x)) return r;
  if (auto r = nvmlDeviceGetBoardId(handle_of(*y), &id_y)) return r;
  *same = multi_x && multi_y && id_x == id_y ? 1 : 0;
  return NVML_SUCCESS;
}
