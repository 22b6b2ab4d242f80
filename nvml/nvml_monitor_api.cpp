// NVML's monitoring getters (docs/nvml.md, "Monitoring"): temperature, power,
// clocks, utilisation, fan, performance state, ECC, retired pages and remapped
// rows, clock event reasons, PCIe link and throughput, modes and versions: each
// from the figure the snapshot recorded for the GPU (nvml_fields.h). A figure not
// recorded is what the real driver says for a field it cannot give
// (NOT_SUPPORTED, or DEPRECATED where nvidia-smi printed that), never a made-up
// number. MIG devices have none of these (NOT_SUPPORTED, as the real library).
//
// Why one file past 500 lines: as nvml_api.cpp, a flat list of short extern "C"
// functions, each one lookup of a recorded field, in the sections of NVML's
// reference (modes, versions, power, clocks, utilisation, ECC, PCIe).
#include <cstring>
#include <string>

#include "nvml/nvml_abi.h"
#include "nvml/nvml_abi_monitor.h"
#include "nvml/nvml_api_internal.h"
#include "nvml/nvml_fields.h"
#include "nvml/nvml_model.h"

using namespace hwaccel::nvml::api;
using hwaccel::nvml::Field;
using hwaccel::nvml::Gpu;

namespace {

using Parse = std::optional<std::uint64_t> (*)(std::string_view);

std::optional<std::uint64_t> as_uint(std::string_view t) {
  return hwaccel::nvml::cell_uint(t);
}
std::optional<std::uint64_t> as_milli(std::string_view t) {
  return hwaccel::nvml::cell_milli(t);
}
std::optional<std::uint64_t> as_hex(std::string_view t) {
  return hwaccel::nvml::cell_hex(t);
}
std::optional<std::uint64_t> as_flag(std::string_view t) {
  auto f = hwaccel::nvml::cell_flag(t);
  return f ? std::optional<std::uint64_t>(*f) : std::nullopt;
}
std::optional<std::uint64_t> as_pstate(std::string_view t) {
  auto p = hwaccel::nvml::cell_pstate(t);
  return p ? std::optional<std::uint64_t>(*p) : std::nullopt;
}

// The whole GPU behind `device` with its recorded cells, or the error to return.
nvmlReturn_t whole_gpu(nvmlDevice_t device, const Gpu*& gpu) {
  if (auto r = gpu_of(device, gpu)) return r;
  return gpu->is_mig ? NVML_ERROR_NOT_SUPPORTED : NVML_SUCCESS;
}

// A recorded field of a whole GPU parsed to a number: the first of `names` that
// was recorded with a value, else the status of the first one recorded at all.
nvmlReturn_t number(const Gpu& gpu, std::initializer_list<const char*> names, Parse parse,
                    std::uint64_t& out) {
  nvmlReturn_t first = NVML_ERROR_NOT_SUPPORTED;
  bool seen = false;
  for (const char* name : names) {
    Field f = hwaccel::nvml::field_of(gpu.cells, name);
    if (f.status == NVML_SUCCESS) {
      if (auto v = parse(f.text)) {
        out = *v;
        return NVML_SUCCESS;
      }
      continue;  // a value of a form we cannot read: as good as not recorded
    }
    if (!seen && gpu.cells.count(name)) first = f.status, seen = true;
  }
  return first;
}

template <typename Out>
nvmlReturn_t answer(nvmlDevice_t device, Out* out, std::initializer_list<const char*> names,
                    Parse parse = as_uint) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!out) return NVML_ERROR_INVALID_ARGUMENT;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  std::uint64_t v = 0;
  if (auto r = number(*gpu, names, parse, v)) return r;
  *out = static_cast<Out>(v);
  return NVML_SUCCESS;
}

nvmlReturn_t text(nvmlDevice_t device, char* out, unsigned length, const char* name) {
  const Gpu* gpu = nullptr;
  if (auto r = whole_gpu(device, gpu)) return r;
  if (!out) return NVML_ERROR_INVALID_ARGUMENT;
  Field f = hwaccel::nvml::field_of(gpu->cells, name);
  if (f.status) return f.status;
  if (f.text.size() + 1 > length) return NVML_ERROR_INSUFFICIENT_SIZE;
  std::memcpy(out, f.text.c_str(), f.text.size() + 1);
  return NVML_SUCCESS;
}

// One of a few named values ("Pass-Through"), as NVML's enum.
template <typename Out>
nvmlReturn_t named(nvmlDevice_t device, Out* out, const char* name,
                   std::initializer_list<std::pair<const char*, int>> values) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!out) return NVML_ERROR_INVALID_ARGUMENT;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  Field f = hwaccel::nvml::field_of(gpu->cells, name);
  if (f.status) return f.status;
  for (const auto& [words, value] : values)
    if (f.text == words) {
      *out = static_cast<Out>(value);
      return NVML_SUCCESS;
    }
  return NVML_ERROR_NOT_SUPPORTED;
}

const char* clock_field(int type, const char* graphics, const char* sm, const char* memory,
                        const char* video) {
  switch (type) {
    case NVML_CLOCK_GRAPHICS:
      return graphics;
    case NVML_CLOCK_SM:
      return sm;
    case NVML_CLOCK_MEM:
      return memory;
    case NVML_CLOCK_VIDEO:
      return video;
    default:
      return nullptr;
  }
}

nvmlReturn_t clock(nvmlDevice_t device, int type, unsigned* mhz, const char* graphics,
                   const char* sm, const char* memory, const char* video) {
  if (type < 0 || type >= NVML_CLOCK_COUNT) return NVML_ERROR_INVALID_ARGUMENT;
  const char* name = clock_field(type, graphics, sm, memory, video);
  if (!name) {
    const Gpu* gpu = nullptr;
    if (auto r = gpu_of(device, gpu)) return r;
    return mhz ? NVML_ERROR_NOT_SUPPORTED : NVML_ERROR_INVALID_ARGUMENT;
  }
  return answer(device, mhz, {name});
}

// Engine utilisation: the recorded percentage. The sampling period is not
// recorded anywhere: it is given as 0.
nvmlReturn_t engine(nvmlDevice_t device, unsigned* util, unsigned* period, const char* name) {
  if (!period) return NVML_ERROR_INVALID_ARGUMENT;
  if (auto r = answer(device, util, {name})) return r;
  *period = 0;
  return NVML_SUCCESS;
}

const char* ecc_location(int location) {
  switch (location) {
    case NVML_MEMORY_LOCATION_L1_CACHE:
      return "l1_cache";
    case NVML_MEMORY_LOCATION_L2_CACHE:
      return "l2_cache";
    case NVML_MEMORY_LOCATION_DEVICE_MEMORY:
      return "device_memory";
    case NVML_MEMORY_LOCATION_REGISTER_FILE:
      return "register_file";
    case NVML_MEMORY_LOCATION_TEXTURE_MEMORY:
      return "texture_memory";
    case NVML_MEMORY_LOCATION_CBU:
      return "cbu";
    case NVML_MEMORY_LOCATION_SRAM:
      return "sram";
    default:
      return nullptr;
  }
}

}  // namespace

// ---- modes
NVML_API nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t device, int* mode) {
  return answer(device, mode, {"persistence_mode"}, as_flag);
}
NVML_API nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t device, int* mode) {
  return named(
      device, mode, "compute_mode",
      {{"Default", 0}, {"Exclusive_Thread", 1}, {"Prohibited", 2}, {"Exclusive_Process", 3}});
}
NVML_API nvmlReturn_t nvmlDeviceGetDisplayMode(nvmlDevice_t device, int* mode) {
  return answer(device, mode, {"display_mode"}, as_flag);
}
NVML_API nvmlReturn_t nvmlDeviceGetDisplayActive(nvmlDevice_t device, int* active) {
  return answer(device, active, {"display_active"}, as_flag);
}
NVML_API nvmlReturn_t nvmlDeviceGetAccountingMode(nvmlDevice_t device, int* mode) {
  return answer(device, mode, {"accounting.mode"}, as_flag);
}
NVML_API nvmlReturn_t nvmlDeviceGetAccountingBufferSize(nvmlDevice_t device, unsigned* size) {
  return answer(device, size, {"accounting.buffer_size"});
}
NVML_API nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t device, int* current, int* pending) {
  if (!pending) return NVML_ERROR_INVALID_ARGUMENT;
  int p = 0;
  if (auto r = answer(device, current, {"ecc.mode.current"}, as_flag)) return r;
  if (auto r = answer(device, &p, {"ecc.mode.pending"}, as_flag)) return r;
  *pending = p;
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetGpuOperationMode(nvmlDevice_t device, int* current,
                                                    int* pending) {
  if (!pending) return NVML_ERROR_INVALID_ARGUMENT;
  const std::initializer_list<std::pair<const char*, int>> modes = {
      {"All On", NVML_GOM_ALL_ON},
      {"Compute", NVML_GOM_COMPUTE},
      {"Low Double Precision", NVML_GOM_LOW_DP}};
  int p = 0;
  if (auto r = named(device, current, "gom.current", modes)) return r;
  if (auto r = named(device, &p, "gom.pending", modes)) return r;
  *pending = p;
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetDriverModel_v2(nvmlDevice_t device, int* current, int* pending) {
  if (!pending) return NVML_ERROR_INVALID_ARGUMENT;
  const std::initializer_list<std::pair<const char*, int>> models = {
      {"WDDM", 0}, {"TCC", 1}, {"MCDM", 2}};
  int p = 0;
  if (auto r = named(device, current, "driver_model.current", models)) return r;
  if (auto r = named(device, &p, "driver_model.pending", models)) return r;
  *pending = p;
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetDriverModel(nvmlDevice_t device, int* current, int* pending) {
  return nvmlDeviceGetDriverModel_v2(device, current, pending);
}
NVML_API nvmlReturn_t nvmlDeviceGetVirtualizationMode(nvmlDevice_t device, int* mode) {
  return named(device, mode, "q.virtualization_mode",
               {{"None", NVML_GPU_VIRTUALIZATION_MODE_NONE},
                {"Pass-Through", NVML_GPU_VIRTUALIZATION_MODE_PASSTHROUGH},
                {"VGPU", NVML_GPU_VIRTUALIZATION_MODE_VGPU},
                {"Host VGPU", NVML_GPU_VIRTUALIZATION_MODE_HOST_VGPU},
                {"Host VSGA", NVML_GPU_VIRTUALIZATION_MODE_HOST_VSGA}});
}
NVML_API nvmlReturn_t nvmlDeviceGetHostVgpuMode(nvmlDevice_t device, int* mode) {
  return named(
      device, mode, "q.host_vgpu_mode",
      {{"Non SR-IOV", NVML_HOST_VGPU_MODE_NON_SRIOV}, {"SR-IOV", NVML_HOST_VGPU_MODE_SRIOV}});
}
NVML_API nvmlReturn_t nvmlDeviceGetGspFirmwareMode(nvmlDevice_t device, unsigned* enabled,
                                                   unsigned* default_mode) {
  if (!default_mode) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned d = 0;
  if (auto r = answer(device, enabled, {"gsp.mode.current"}, as_flag)) return r;
  if (auto r = answer(device, &d, {"gsp.mode.default"}, as_flag)) return r;
  *default_mode = d;
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetAutoBoostedClocksEnabled(nvmlDevice_t device, int* enabled,
                                                            int* default_enabled) {
  if (!default_enabled) return NVML_ERROR_INVALID_ARGUMENT;
  int d = 0;
  if (auto r = answer(device, enabled, {"q.auto_boost"}, as_flag)) return r;
  if (auto r = answer(device, &d, {"q.auto_boost_default"}, as_flag)) return r;
  *default_enabled = d;
  return NVML_SUCCESS;
}

// ---- versions and board
NVML_API nvmlReturn_t nvmlDeviceGetVbiosVersion(nvmlDevice_t device, char* version,
                                                unsigned length) {
  return text(device, version, length, "vbios_version");
}
NVML_API nvmlReturn_t nvmlDeviceGetInforomImageVersion(nvmlDevice_t device, char* version,
                                                       unsigned length) {
  return text(device, version, length, "inforom.img");
}
NVML_API nvmlReturn_t nvmlDeviceGetInforomVersion(nvmlDevice_t device, int object, char* version,
                                                  unsigned length) {
  const char* names[] = {"inforom.oem", "inforom.ecc", "inforom.pwr"};
  if (object < NVML_INFOROM_OEM || object > NVML_INFOROM_POWER) return NVML_ERROR_INVALID_ARGUMENT;
  return text(device, version, length, names[object]);
}
NVML_API nvmlReturn_t nvmlDeviceGetBoardPartNumber(nvmlDevice_t device, char* part,
                                                   unsigned length) {
  return text(device, part, length, "q.board_part_number");
}
NVML_API nvmlReturn_t nvmlDeviceGetGspFirmwareVersion(nvmlDevice_t device, char* version) {
  return text(device, version, NVML_GSP_FIRMWARE_VERSION_BUF_SIZE, "q.gsp_firmware_version");
}
NVML_API nvmlReturn_t nvmlDeviceGetBoardId(nvmlDevice_t device, unsigned* id) {
  return answer(device, id, {"q.board_id"}, as_hex);
}
NVML_API nvmlReturn_t nvmlDeviceGetMultiGpuBoard(nvmlDevice_t device, unsigned* multi) {
  return answer(device, multi, {"q.multigpu_board"}, as_flag);
}
NVML_API nvmlReturn_t nvmlDeviceGetModuleId(nvmlDevice_t device, unsigned* id) {
  return answer(device, id, {"platform.module_id"});
}

// ---- temperature, power, performance state
NVML_API nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned* temp) {
  if (sensor != NVML_TEMPERATURE_GPU) return NVML_ERROR_INVALID_ARGUMENT;
  return answer(device, temp, {"temperature.gpu"});
}
NVML_API nvmlReturn_t nvmlDeviceGetTemperatureThreshold(nvmlDevice_t device, int type,
                                                        unsigned* temp) {
  if (type < 0 || type >= NVML_TEMPERATURE_THRESHOLD_COUNT) return NVML_ERROR_INVALID_ARGUMENT;
  const char* name = type == NVML_TEMPERATURE_THRESHOLD_SHUTDOWN   ? "q.temperature.shutdown"
                     : type == NVML_TEMPERATURE_THRESHOLD_SLOWDOWN ? "q.temperature.slowdown"
                     : type == NVML_TEMPERATURE_THRESHOLD_MEM_MAX  ? "q.temperature.memory_max"
                     : type == NVML_TEMPERATURE_THRESHOLD_GPU_MAX  ? "q.temperature.gpu_max"
                                                                   : "";
  return answer(device, temp, {name});
}
// The instantaneous draw where recorded (drivers from 535 on), else "Power Draw".
NVML_API nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned* milliwatts) {
  return answer(device, milliwatts, {"power.draw.instant", "power.draw"}, as_milli);
}
NVML_API nvmlReturn_t nvmlDeviceGetPowerManagementLimit(nvmlDevice_t device, unsigned* limit) {
  return answer(device, limit, {"power.limit"}, as_milli);
}
NVML_API nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned* limit) {
  return answer(device, limit, {"enforced.power.limit", "power.limit"}, as_milli);
}
NVML_API nvmlReturn_t nvmlDeviceGetPowerManagementDefaultLimit(nvmlDevice_t device,
                                                               unsigned* limit) {
  return answer(device, limit, {"power.default_limit"}, as_milli);
}
NVML_API nvmlReturn_t nvmlDeviceGetPowerManagementLimitConstraints(nvmlDevice_t device,
                                                                   unsigned* min, unsigned* max) {
  if (!max) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned high = 0;
  if (auto r = answer(device, min, {"power.min_limit"}, as_milli)) return r;
  if (auto r = answer(device, &high, {"power.max_limit"}, as_milli)) return r;
  *max = high;
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetPowerManagementMode(nvmlDevice_t device, int* mode) {
  return named(device, mode, "power.management",
               {{"Supported", 1}, {"Enabled", 1}, {"Disabled", 0}});
}
NVML_API nvmlReturn_t nvmlDeviceGetPerformanceState(nvmlDevice_t device, int* pstate) {
  return answer(device, pstate, {"pstate"}, as_pstate);
}
NVML_API nvmlReturn_t nvmlDeviceGetPowerState(nvmlDevice_t device, int* pstate) {
  return nvmlDeviceGetPerformanceState(device, pstate);
}
NVML_API nvmlReturn_t nvmlDeviceGetFanSpeed(nvmlDevice_t device, unsigned* speed) {
  return answer(device, speed, {"fan.speed"});
}
// Only the figure nvidia-smi prints (fan 0's) is recorded.
NVML_API nvmlReturn_t nvmlDeviceGetFanSpeed_v2(nvmlDevice_t device, unsigned fan, unsigned* speed) {
  if (fan != 0) {
    const Gpu* gpu = nullptr;
    if (auto r = gpu_of(device, gpu)) return r;
    return speed ? NVML_ERROR_NOT_SUPPORTED : NVML_ERROR_INVALID_ARGUMENT;
  }
  return nvmlDeviceGetFanSpeed(device, speed);
}

// ---- clocks
NVML_API nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned* mhz) {
  return clock(device, type, mhz, "clocks.current.graphics", "clocks.current.sm",
               "clocks.current.memory", "clocks.current.video");
}
NVML_API nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, int type, unsigned* mhz) {
  return clock(device, type, mhz, "clocks.max.graphics", "clocks.max.sm", "clocks.max.memory",
               "q.clocks.max.video");
}
NVML_API nvmlReturn_t nvmlDeviceGetApplicationsClock(nvmlDevice_t device, int type, unsigned* mhz) {
  return clock(device, type, mhz, "clocks.applications.graphics", nullptr,
               "clocks.applications.memory", nullptr);
}
NVML_API nvmlReturn_t nvmlDeviceGetDefaultApplicationsClock(nvmlDevice_t device, int type,
                                                            unsigned* mhz) {
  return clock(device, type, mhz, "clocks.default_applications.graphics", nullptr,
               "clocks.default_applications.memory", nullptr);
}
NVML_API nvmlReturn_t nvmlDeviceGetMaxCustomerBoostClock(nvmlDevice_t device, int type,
                                                         unsigned* mhz) {
  return clock(device, type, mhz, "q.clocks.boost.graphics", nullptr, nullptr, nullptr);
}
NVML_API nvmlReturn_t nvmlDeviceGetClock(nvmlDevice_t device, int type, int id, unsigned* mhz) {
  switch (id) {
    case NVML_CLOCK_ID_CURRENT:
      return nvmlDeviceGetClockInfo(device, type, mhz);
    case NVML_CLOCK_ID_APP_CLOCK_TARGET:
      return nvmlDeviceGetApplicationsClock(device, type, mhz);
    case NVML_CLOCK_ID_APP_CLOCK_DEFAULT:
      return nvmlDeviceGetDefaultApplicationsClock(device, type, mhz);
    case NVML_CLOCK_ID_CUSTOMER_BOOST_MAX:
      return nvmlDeviceGetMaxCustomerBoostClock(device, type, mhz);
    default:
      return NVML_ERROR_INVALID_ARGUMENT;
  }
}
// Bit masks as nvidia-smi prints them (0x...); drivers before 530 named them throttle reasons.
NVML_API nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device,
                                                             unsigned long long* reasons) {
  return answer(device, reasons, {"clocks_event_reasons.active", "clocks_throttle_reasons.active"},
                as_hex);
}
NVML_API nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t device,
                                                                unsigned long long* reasons) {
  return nvmlDeviceGetCurrentClocksEventReasons(device, reasons);
}
NVML_API nvmlReturn_t nvmlDeviceGetSupportedClocksEventReasons(nvmlDevice_t device,
                                                               unsigned long long* reasons) {
  return answer(device, reasons,
                {"clocks_event_reasons.supported", "clocks_throttle_reasons.supported"}, as_hex);
}
NVML_API nvmlReturn_t nvmlDeviceGetSupportedClocksThrottleReasons(nvmlDevice_t device,
                                                                  unsigned long long* reasons) {
  return nvmlDeviceGetSupportedClocksEventReasons(device, reasons);
}

// ---- utilisation
NVML_API nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t* u) {
  if (!u) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned gpu = 0, memory = 0;
  if (auto r = answer(device, &gpu, {"utilization.gpu"})) return r;
  if (auto r = answer(device, &memory, {"utilization.memory"})) return r;
  u->gpu = gpu;
  u->memory = memory;
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetEncoderUtilization(nvmlDevice_t device, unsigned* util,
                                                      unsigned* period) {
  return engine(device, util, period, "utilization.encoder");
}
NVML_API nvmlReturn_t nvmlDeviceGetDecoderUtilization(nvmlDevice_t device, unsigned* util,
                                                      unsigned* period) {
  return engine(device, util, period, "utilization.decoder");
}
NVML_API nvmlReturn_t nvmlDeviceGetJpgUtilization(nvmlDevice_t device, unsigned* util,
                                                  unsigned* period) {
  return engine(device, util, period, "utilization.jpeg");
}
NVML_API nvmlReturn_t nvmlDeviceGetOfaUtilization(nvmlDevice_t device, unsigned* util,
                                                  unsigned* period) {
  return engine(device, util, period, "utilization.ofa");
}
NVML_API nvmlReturn_t nvmlDeviceGetEncoderStats(nvmlDevice_t device, unsigned* sessions,
                                                unsigned* fps, unsigned* latency) {
  if (!fps || !latency) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned f = 0, l = 0;
  if (auto r = answer(device, sessions, {"encoder.stats.sessionCount"})) return r;
  if (auto r = answer(device, &f, {"encoder.stats.averageFps"})) return r;
  if (auto r = answer(device, &l, {"encoder.stats.averageLatency"})) return r;
  *fps = f;
  *latency = l;
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetFBCStats(nvmlDevice_t device, nvmlFBCStats_t* stats) {
  if (!stats) return NVML_ERROR_INVALID_ARGUMENT;
  nvmlFBCStats_t s{};
  if (auto r = answer(device, &s.sessionsCount, {"q.fbc.sessions"})) return r;
  if (auto r = answer(device, &s.averageFPS, {"q.fbc.fps"})) return r;
  if (auto r = answer(device, &s.averageLatency, {"q.fbc.latency"})) return r;
  *stats = s;
  return NVML_SUCCESS;
}
// Sessions themselves are not recorded: a recorded count of 0 is an empty list.
namespace {
nvmlReturn_t no_sessions(nvmlDevice_t device, unsigned* count, const char* field) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!count) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned recorded = 0;
  if (auto r = answer(device, &recorded, {field})) return r;
  if (recorded != 0) return NVML_ERROR_NOT_SUPPORTED;
  *count = 0;
  return NVML_SUCCESS;
}
}  // namespace
NVML_API nvmlReturn_t nvmlDeviceGetEncoderSessions(nvmlDevice_t device, unsigned* count,
                                                   void* /*infos*/) {
  return no_sessions(device, count, "encoder.stats.sessionCount");
}
NVML_API nvmlReturn_t nvmlDeviceGetFBCSessions(nvmlDevice_t device, unsigned* count,
                                               void* /*infos*/) {
  return no_sessions(device, count, "q.fbc.sessions");
}

// ---- ECC, retired pages, remapped rows
NVML_API nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t device, int type, int counter,
                                                  unsigned long long* count) {
  if (type < 0 || type > 1 || counter < 0 || counter > 1) return NVML_ERROR_INVALID_ARGUMENT;
  const std::string name = std::string("ecc.errors.") + (type ? "uncorrected" : "corrected") +
                           (counter ? ".aggregate" : ".volatile") + ".total";
  return answer(device, count, {name.c_str()});
}
NVML_API nvmlReturn_t nvmlDeviceGetMemoryErrorCounter(nvmlDevice_t device, int type, int counter,
                                                      int location, unsigned long long* count) {
  const char* where = ecc_location(location);
  if (type < 0 || type > 1 || counter < 0 || counter > 1 ||
      (!where && location != NVML_MEMORY_LOCATION_TEXTURE_SHM))
    return NVML_ERROR_INVALID_ARGUMENT;
  const std::string base = std::string("ecc.errors.") + (type ? "uncorrected" : "corrected") +
                           (counter ? ".aggregate." : ".volatile.");
  const std::string name = base + (where ? where : "texture_shm"), dram = base + "dram";
  // Device memory is "dram" on drivers that split SRAM from DRAM.
  if (location == NVML_MEMORY_LOCATION_DEVICE_MEMORY)
    return answer(device, count, {name.c_str(), dram.c_str()});
  return answer(device, count, {name.c_str()});
}
// The addresses of retired pages are not recorded: a recorded count of 0 answers.
namespace {
nvmlReturn_t retired(nvmlDevice_t device, int cause, unsigned* count) {
  if (cause < 0 || cause > 1 || !count) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned recorded = 0;
  if (auto r =
          answer(device, &recorded,
                 {cause ? "retired_pages.double_bit.count" : "retired_pages.single_bit_ecc.count"}))
    return r;
  if (recorded != 0) return NVML_ERROR_NOT_SUPPORTED;
  *count = 0;
  return NVML_SUCCESS;
}
}  // namespace
NVML_API nvmlReturn_t nvmlDeviceGetRetiredPages(nvmlDevice_t device, int cause, unsigned* count,
                                                unsigned long long* /*addresses*/) {
  return retired(device, cause, count);
}
NVML_API nvmlReturn_t nvmlDeviceGetRetiredPages_v2(nvmlDevice_t device, int cause, unsigned* count,
                                                   unsigned long long* /*addresses*/,
                                                   unsigned long long* /*timestamps*/) {
  return retired(device, cause, count);
}
NVML_API nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t device, int* pending) {
  return answer(device, pending, {"retired_pages.pending"}, as_flag);
}
NVML_API nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t device, unsigned* corrected,
                                                unsigned* uncorrected, unsigned* pending,
                                                unsigned* failed) {
  if (!uncorrected || !pending || !failed) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned u = 0, p = 0, f = 0;
  if (auto r = answer(device, corrected, {"remapped_rows.correctable"})) return r;
  if (auto r = answer(device, &u, {"remapped_rows.uncorrectable"})) return r;
  if (auto r = answer(device, &p, {"remapped_rows.pending"}, as_flag)) return r;
  if (auto r = answer(device, &f, {"remapped_rows.failure"}, as_flag)) return r;
  *uncorrected = u, *pending = p, *failed = f;
  return NVML_SUCCESS;
}
NVML_API nvmlReturn_t nvmlDeviceGetRowRemapperHistogram(nvmlDevice_t device,
                                                        nvmlRowRemapperHistogramValues_t* v) {
  if (!v) return NVML_ERROR_INVALID_ARGUMENT;
  nvmlRowRemapperHistogramValues_t h{};
  if (auto r = answer(device, &h.max, {"remapped_rows.histogram.max"})) return r;
  if (auto r = answer(device, &h.high, {"remapped_rows.histogram.high"})) return r;
  if (auto r = answer(device, &h.partial, {"remapped_rows.histogram.partial"})) return r;
  if (auto r = answer(device, &h.low, {"remapped_rows.histogram.low"})) return r;
  if (auto r = answer(device, &h.none, {"remapped_rows.histogram.none"})) return r;
  *v = h;
  return NVML_SUCCESS;
}

// ---- PCIe: the recorded link, else the one the detection read from sysfs
namespace {
nvmlReturn_t link(nvmlDevice_t device, unsigned* out, const char* field,
                  std::optional<int> Gpu::*detected) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!out) return NVML_ERROR_INVALID_ARGUMENT;
  gpu = whole_of(gpu);
  std::uint64_t v = 0;
  if (number(*gpu, {field}, as_uint, v) == NVML_SUCCESS) {
    *out = static_cast<unsigned>(v);
    return NVML_SUCCESS;
  }
  const auto& d = gpu->*detected;
  if (!d || *d <= 0) return NVML_ERROR_NOT_SUPPORTED;
  *out = static_cast<unsigned>(*d);
  return NVML_SUCCESS;
}
}  // namespace
NVML_API nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t device, unsigned* gen) {
  return link(device, gen, "pcie.link.gen.current", &Gpu::pcie_gen_current);
}
NVML_API nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t device, unsigned* width) {
  return link(device, width, "pcie.link.width.current", &Gpu::pcie_width_current);
}
NVML_API nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t device, unsigned* gen) {
  return link(device, gen, "pcie.link.gen.max", &Gpu::pcie_gen_max);
}
NVML_API nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t device, unsigned* width) {
  return link(device, width, "pcie.link.width.max", &Gpu::pcie_width_max);
}
NVML_API nvmlReturn_t nvmlDeviceGetGpuMaxPcieLinkGeneration(nvmlDevice_t device, unsigned* gen) {
  return answer(device, gen, {"pcie.link.gen.gpumax"});
}
NVML_API nvmlReturn_t nvmlDeviceGetPcieThroughput(nvmlDevice_t device, int counter,
                                                  unsigned* kb_per_s) {
  if (counter != NVML_PCIE_UTIL_TX_BYTES && counter != NVML_PCIE_UTIL_RX_BYTES)
    return NVML_ERROR_INVALID_ARGUMENT;
  return answer(device, kb_per_s, {counter == NVML_PCIE_UTIL_TX_BYTES ? "q.pcie.tx" : "q.pcie.rx"});
}
NVML_API nvmlReturn_t nvmlDeviceGetPcieReplayCounter(nvmlDevice_t device, unsigned* replays) {
  return answer(device, replays, {"q.pcie.replays"});
}

// Confidential computing's protected memory, in bytes (recorded in MiB).
NVML_API nvmlReturn_t nvmlDeviceGetConfComputeProtectedMemoryUsage(nvmlDevice_t device,
                                                                   nvmlMemory_t* memory) {
  if (!memory) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned long long total = 0, used = 0, free = 0;
  if (auto r = answer(device, &total, {"protected_memory.total"})) return r;
  if (auto r = answer(device, &used, {"protected_memory.used"})) return r;
  if (auto r = answer(device, &free, {"protected_memory.free"})) return r;
  memory->total = total << 20, memory->used = used << 20, memory->free = free << 20;
  return NVML_SUCCESS;
}
