#include "tools/hwaccel_nvml/nvml_monitor.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace hwaccel_nvml {
namespace {

using nlohmann::json;

constexpr unsigned kMaxProcesses = 256;

// What nvidia-smi prints for a getter that fails, which the replay reads back
// (nvml/nvml_fields.h); Not Supported is no error worth a note.
std::string failure_cell(const Nvml& nvml, json& errors, const char* call, Return rc) {
  if (rc == kErrorNotSupported) return "[N/A]";
  note(nvml, errors, call, rc);
  if (rc == kErrorNoPermission) return "[Insufficient Permissions]";
  if (rc == kErrorGpuIsLost) return "[GPU is lost]";
  return "[Unknown Error]";
}

class Monitor {
 public:
  Monitor(const Nvml& nvml, Device device, json& cells, json& errors)
      : nvml_(nvml), device_(device), cells_(cells), errors_(errors) {}

  // One getter's answer as a cell under `field`; a getter the library lacks
  // (an older driver) leaves no cell.
  template <typename Fn, typename Call, typename Text>
  void cell(const char* field, const char* name, Call call, Text text) {
    auto fn = nvml_.template get<Fn>(name);
    if (!fn) return;
    const Return rc = call(fn);
    cells_[field] = rc == kSuccess ? text() : failure_cell(nvml_, errors_, name, rc);
  }

  void unsigned_cell(const char* field, const char* name) {
    unsigned v = 0;
    cell<UnsignedFn>(
        field, name, [&](auto fn) { return fn(device_, &v); }, [&] { return std::to_string(v); });
  }
  // Milliwatts as nvidia-smi prints watts: "625.24".
  void watts_cell(const char* field, const char* name) {
    unsigned mw = 0;
    cell<UnsignedFn>(
        field, name, [&](auto fn) { return fn(device_, &mw); }, [&] { return watts(mw); });
  }
  void clock_cell(const char* field, const char* name, int type) {
    unsigned mhz = 0;
    cell<SensorFn>(
        field, name, [&](auto fn) { return fn(device_, type, &mhz); },
        [&] { return std::to_string(mhz); });
  }
  void reasons_cell(const char* field, const char* name, const char* older) {
    unsigned long long mask = 0;
    const char* call = nvml_.template get<ReasonsFn>(name) ? name : older;
    cell<ReasonsFn>(
        field, call, [&](auto fn) { return fn(device_, &mask); },
        [&] {
          char text[24];
          std::snprintf(text, sizeof text, "0x%016llx", mask);
          return std::string(text);
        });
  }
  static std::string watts(unsigned mw) {
    char text[24];
    std::snprintf(text, sizeof text, "%u.%02u", mw / 1000, mw % 1000 / 10);
    return text;
  }

 private:
  const Nvml& nvml_;
  Device device_;
  json& cells_;
  json& errors_;
};

json processes(const Nvml& nvml, Device device, json& errors) {
  json list = json::array();
  auto fn = nvml.get<ProcessesFn>("nvmlDeviceGetComputeRunningProcesses_v3");
  const char* call = "nvmlDeviceGetComputeRunningProcesses_v3";
  if (!fn) {
    fn = nvml.get<ProcessesFn>("nvmlDeviceGetComputeRunningProcesses_v2");
    call = "nvmlDeviceGetComputeRunningProcesses_v2";
  }
  if (!fn) return list;
  static ProcessInfo infos[kMaxProcesses];
  unsigned count = kMaxProcesses;
  const Return rc = fn(device, &count, infos);
  if (rc != kSuccess) {
    if (rc != kErrorNotSupported) note(nvml, errors, call, rc);
    return list;
  }
  auto name_of = nvml.get<ProcessNameFn>("nvmlSystemGetProcessName");
  for (unsigned i = 0; i < count && i < kMaxProcesses; ++i) {
    json p = {{"pid", infos[i].pid}};
    if (infos[i].used_gpu_memory != kValueNotAvailable) p["used_memory"] = infos[i].used_gpu_memory;
    char name[256] = {};
    if (name_of && name_of(infos[i].pid, name, sizeof name) == kSuccess)
      p["name"] = std::string(name, strnlen(name, sizeof name));
    list.push_back(std::move(p));
  }
  return list;
}

}  // namespace

void monitoring(const Nvml& nvml, Device device, json& out, json& errors) {
  json cells = json::object();
  Monitor m(nvml, device, cells, errors);
  unsigned temperature = 0;
  m.cell<SensorFn>(
      "temperature.gpu", "nvmlDeviceGetTemperature",
      [&](auto fn) { return fn(device, 0 /* NVML_TEMPERATURE_GPU */, &temperature); },
      [&] { return std::to_string(temperature); });
  m.watts_cell("power.draw.instant", "nvmlDeviceGetPowerUsage");
  m.watts_cell("power.limit", "nvmlDeviceGetPowerManagementLimit");
  m.watts_cell("enforced.power.limit", "nvmlDeviceGetEnforcedPowerLimit");
  m.watts_cell("power.default_limit", "nvmlDeviceGetPowerManagementDefaultLimit");
  unsigned low = 0, high = 0;
  m.cell<TwoUnsignedFn>(
      "power.min_limit", "nvmlDeviceGetPowerManagementLimitConstraints",
      [&](auto fn) { return fn(device, &low, &high); }, [&] { return Monitor::watts(low); });
  if (cells.contains("power.min_limit"))
    cells["power.max_limit"] = cells["power.min_limit"].get<std::string>()[0] == '['
                                   ? cells["power.min_limit"]
                                   : json(Monitor::watts(high));
  int pstate = 0;
  m.cell<IntFn>(
      "pstate", "nvmlDeviceGetPerformanceState", [&](auto fn) { return fn(device, &pstate); },
      [&] {
        return pstate < 0 || pstate >= kPstateUnknown ? std::string("[N/A]")
                                                      : "P" + std::to_string(pstate);
      });
  m.unsigned_cell("fan.speed", "nvmlDeviceGetFanSpeed");
  const char* kinds[] = {"graphics", "sm", "memory", "video"};
  for (int type = 0; type < 4; ++type) {
    const std::string current = std::string("clocks.current.") + kinds[type];
    m.clock_cell(current.c_str(), "nvmlDeviceGetClockInfo", type);
    if (type == 3) continue;  // nvidia-smi has no clocks.max.video
    const std::string max = std::string("clocks.max.") + kinds[type];
    m.clock_cell(max.c_str(), "nvmlDeviceGetMaxClockInfo", type);
  }
  Utilization u{};
  m.cell<UtilizationFn>(
      "utilization.gpu", "nvmlDeviceGetUtilizationRates", [&](auto fn) { return fn(device, &u); },
      [&] { return std::to_string(u.gpu); });
  if (cells.contains("utilization.gpu"))
    cells["utilization.memory"] = cells["utilization.gpu"].get<std::string>()[0] == '['
                                      ? cells["utilization.gpu"]
                                      : json(std::to_string(u.memory));
  for (auto [field, name] : {std::pair{"utilization.encoder", "nvmlDeviceGetEncoderUtilization"},
                             std::pair{"utilization.decoder", "nvmlDeviceGetDecoderUtilization"}}) {
    unsigned value = 0, period = 0;
    m.cell<EngineUtilizationFn>(
        field, name, [&](auto fn) { return fn(device, &value, &period); },
        [&] { return std::to_string(value); });
  }
  m.reasons_cell("clocks_event_reasons.active", "nvmlDeviceGetCurrentClocksEventReasons",
                 "nvmlDeviceGetCurrentClocksThrottleReasons");
  m.reasons_cell("clocks_event_reasons.supported", "nvmlDeviceGetSupportedClocksEventReasons",
                 "nvmlDeviceGetSupportedClocksThrottleReasons");
  m.unsigned_cell("pcie.link.gen.current", "nvmlDeviceGetCurrPcieLinkGeneration");
  m.unsigned_cell("pcie.link.gen.max", "nvmlDeviceGetMaxPcieLinkGeneration");
  m.unsigned_cell("pcie.link.width.current", "nvmlDeviceGetCurrPcieLinkWidth");
  m.unsigned_cell("pcie.link.width.max", "nvmlDeviceGetMaxPcieLinkWidth");
  unsigned current = 0, pending = 0;
  m.cell<TwoUnsignedFn>(
      "ecc.mode.current", "nvmlDeviceGetEccMode",
      [&](auto fn) { return fn(device, &current, &pending); },
      [&] { return std::string(current ? "Enabled" : "Disabled"); });
  out["monitor"] = std::move(cells);
  out["processes"] = processes(nvml, device, errors);
}

}  // namespace hwaccel_nvml
