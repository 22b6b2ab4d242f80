// hwaccel-nvml: asks NVML, in one process, everything the CUDA probe wants to
// know, and prints one JSON document (docs/probes.md, "NVML"). The probe runs it
// through the Host like any tool, so a recording keeps its output and a replay
// answers with it. Every failed call is data in the document, never a crash:
//
//   {"hwaccel_nvml": 1, "status": "ok" | "no_library" | "init_failed",
//    "driver_version": ..., "devices": [...], "topology": [...], "errors": [...]}
//
// Exit 0 whenever a document is printed; 2 on a usage error.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/hwaccel_nvml/nvml_abi.h"
#include "tools/hwaccel_nvml/nvml_call.h"
#include "tools/hwaccel_nvml/nvml_monitor.h"

namespace hwaccel_nvml {
namespace {

using nlohmann::json;

constexpr int kDocumentVersion = 1;
constexpr unsigned kMaxDevices = 64;     // more than any machine has; bounds the output
constexpr unsigned kMaxMigDevices = 64;  // NVML's own limit per GPU is 7 on today's parts

std::string cut(const char* text, std::size_t size) {
  return std::string(text, strnlen(text, size));
}

void strings_and_memory(const Nvml& nvml, Device device, json& out, json& errors) {
  char text[kStringSize] = {};
  if (ask<DeviceStringFn>(nvml, errors, "nvmlDeviceGetName",
                          [&](auto fn) { return fn(device, text, sizeof text); }))
    out["name"] = cut(text, sizeof text);
  std::memset(text, 0, sizeof text);
  if (ask<DeviceStringFn>(nvml, errors, "nvmlDeviceGetUUID",
                          [&](auto fn) { return fn(device, text, sizeof text); }))
    out["uuid"] = cut(text, sizeof text);
  Memory memory{};
  if (ask<MemoryFn>(nvml, errors, "nvmlDeviceGetMemoryInfo",
                    [&](auto fn) { return fn(device, &memory); })) {
    out["memory_total"] = memory.total;
    out["memory_used"] = memory.used;
    out["memory_free"] = memory.free;
  }
}

json mig_devices(const Nvml& nvml, Device device, json& errors) {
  json list = json::array();
  unsigned count = 0;
  if (!ask<UnsignedFn>(nvml, errors, "nvmlDeviceGetMaxMigDeviceCount",
                       [&](auto fn) { return fn(device, &count); }))
    return list;
  auto handle_of = nvml.get<MigHandleFn>("nvmlDeviceGetMigDeviceHandleByIndex");
  for (unsigned i = 0; i < count && i < kMaxMigDevices && handle_of; ++i) {
    Device mig = nullptr;
    const Return rc = handle_of(device, i, &mig);
    if (rc == kErrorNotFound) continue;  // an empty slot
    if (rc != kSuccess) {
      note(nvml, errors, "nvmlDeviceGetMigDeviceHandleByIndex", rc);
      continue;
    }
    json one = {{"index", i}};
    json own_errors = json::array();
    strings_and_memory(nvml, mig, one, own_errors);
    unsigned id = 0;
    if (ask<UnsignedFn>(nvml, own_errors, "nvmlDeviceGetGpuInstanceId",
                        [&](auto fn) { return fn(mig, &id); }))
      one["gpu_instance_id"] = id;
    if (ask<UnsignedFn>(nvml, own_errors, "nvmlDeviceGetComputeInstanceId",
                        [&](auto fn) { return fn(mig, &id); }))
      one["compute_instance_id"] = id;
    one["errors"] = own_errors;
    list.push_back(std::move(one));
  }
  return list;
}

json nvlinks(const Nvml& nvml, Device device, json& errors) {
  json links = json::array();
  auto state_of = nvml.get<NvLinkStateFn>("nvmlDeviceGetNvLinkState");
  auto remote_of = nvml.get<NvLinkRemoteFn>("nvmlDeviceGetNvLinkRemotePciInfo_v2");
  auto type_of = nvml.get<NvLinkTypeFn>("nvmlDeviceGetNvLinkRemoteDeviceType");
  if (!state_of) {
    note(nvml, errors, "nvmlDeviceGetNvLinkState", kErrorFunctionNotFound);
    return links;
  }
  for (unsigned link = 0; link < kNvLinkMaxLinks; ++link) {
    int active = 0;
    const Return rc = state_of(device, link, &active);
    if (rc == kErrorNotSupported || rc == 2 /* INVALID_ARGUMENT: no such link */) break;
    if (rc != kSuccess) {
      note(nvml, errors, "nvmlDeviceGetNvLinkState", rc);
      break;
    }
    json one = {{"link", link}, {"active", active != 0}};
    PciInfo remote{};
    if (active && remote_of && remote_of(device, link, &remote) == kSuccess)
      one["remote_pci_bus_id"] = cut(remote.bus_id, sizeof remote.bus_id);
    int type = -1;
    if (active && type_of && type_of(device, link, &type) == kSuccess)
      one["remote_type"] = type == kNvLinkDeviceSwitch ? "switch" : type == 0 ? "gpu" : "other";
    links.push_back(std::move(one));
  }
  return links;
}

// A bitmask of unsigned longs as topo -m prints a CPU list: "0-55,112-167".
std::string cpu_list(const unsigned long* words, unsigned count) {
  constexpr unsigned bits = sizeof(unsigned long) * 8;
  std::string out;
  const unsigned total = count * bits;
  for (unsigned i = 0; i < total;) {
    if (!(words[i / bits] >> (i % bits) & 1)) {
      ++i;
      continue;
    }
    unsigned last = i;
    while (last + 1 < total && (words[(last + 1) / bits] >> ((last + 1) % bits) & 1)) ++last;
    if (!out.empty()) out += ',';
    out += std::to_string(i);
    if (last > i) out += "-" + std::to_string(last);
    i = last + 1;
  }
  return out;
}

// What topo -m's CPU and NUMA Affinity columns say, from the same NVML calls.
void affinity(const Nvml& nvml, Device device, json& out, json& errors) {
  unsigned long words[kAffinityWords] = {};
  out["cpu_affinity"] = "";
  if (ask<CpuAffinityFn>(nvml, errors, "nvmlDeviceGetCpuAffinity",
                         [&](auto fn) { return fn(device, kAffinityWords, words); }))
    out["cpu_affinity"] = cpu_list(words, kAffinityWords);
  std::memset(words, 0, sizeof words);
  if (ask<MemoryAffinityFn>(nvml, errors, "nvmlDeviceGetMemoryAffinity", [&](auto fn) {
        return fn(device, kAffinityWords, words, kAffinityScopeNode);
      })) {
    const std::string nodes = cpu_list(words, kAffinityWords);
    // One node, as topo -m shows it; several or none: N/A there too.
    if (!nodes.empty() && nodes.find_first_of(",-") == std::string::npos)
      out["numa_affinity"] = std::stoi(nodes);
  }
}

json device_document(const Nvml& nvml, unsigned index, Device device) {
  json out = {{"index", index}};
  json errors = json::array();
  strings_and_memory(nvml, device, out, errors);
  PciInfo pci{};
  if (ask<PciInfoFn>(nvml, errors, "nvmlDeviceGetPciInfo_v3",
                     [&](auto fn) { return fn(device, &pci); })) {
    out["pci_bus_id"] = cut(pci.bus_id, sizeof pci.bus_id);
    out["pci_device_id"] = pci.pci_device_id;
  }
  int major = 0, minor = 0;
  if (ask<ComputeCapFn>(nvml, errors, "nvmlDeviceGetCudaComputeCapability",
                        [&](auto fn) { return fn(device, &major, &minor); }))
    out["compute_capability"] = std::to_string(major) + "." + std::to_string(minor);
  unsigned current = 0, pending = 0;
  if (ask<TwoUnsignedFn>(nvml, errors, "nvmlDeviceGetMigMode",
                         [&](auto fn) { return fn(device, &current, &pending); })) {
    out["mig_mode"] = current;
    out["mig_mode_pending"] = pending;
    if (current == 1) out["mig_devices"] = mig_devices(nvml, device, errors);
  }
  out["nvlinks"] = nvlinks(nvml, device, errors);
  affinity(nvml, device, out, errors);
  C2cModeInfo c2c{};
  if (ask<C2cFn>(nvml, errors, "nvmlDeviceGetC2cModeInfoV",
                 [&](auto fn) { return fn(device, &c2c); }))
    out["c2c_enabled"] = c2c.is_c2c_enabled != 0;
  AddressingMode mode{kAddressingModeVersion1, 0};
  if (ask<AddressingFn>(nvml, errors, "nvmlDeviceGetAddressingMode",
                        [&](auto fn) { return fn(device, &mode); }))
    out["addressing_mode"] = mode.value == 2 ? "ATS" : mode.value == 1 ? "HMM" : "None";
  int state = 0;
  if (ask<IntFn>(nvml, errors, "nvmlDeviceGetPersistenceMode",
                 [&](auto fn) { return fn(device, &state); }))
    out["persistence_mode"] = state != 0;
  if (ask<IntFn>(nvml, errors, "nvmlDeviceGetComputeMode",
                 [&](auto fn) { return fn(device, &state); }))
    out["compute_mode"] = state;
  monitoring(nvml, device, out, errors);
  out["errors"] = errors;
  return out;
}

json system_document(const Nvml& nvml, json& doc) {
  json errors = json::array();
  char text[kStringSize] = {};
  if (ask<SystemStringFn>(nvml, errors, "nvmlSystemGetDriverVersion",
                          [&](auto fn) { return fn(text, sizeof text); }))
    doc["driver_version"] = cut(text, sizeof text);
  std::memset(text, 0, sizeof text);
  if (ask<SystemStringFn>(nvml, errors, "nvmlSystemGetNVMLVersion",
                          [&](auto fn) { return fn(text, sizeof text); }))
    doc["nvml_version"] = cut(text, sizeof text);
  int cuda = 0;
  if (ask<SystemIntFn>(nvml, errors, "nvmlSystemGetCudaDriverVersion_v2",
                       [&](auto fn) { return fn(&cuda); }))
    doc["cuda_driver_version"] =
        std::to_string(cuda / 1000) + "." + std::to_string(cuda % 1000 / 10);
  return errors;
}

json document() {
  json doc = {{"hwaccel_nvml", kDocumentVersion}};
  void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    doc["status"] = "no_library";
    doc["detail"] = why ? why : "dlopen failed";
    return doc;
  }
  Nvml nvml(library);
  json errors = json::array();
  if (!ask<InitFn>(nvml, errors, "nvmlInit_v2", [](auto fn) { return fn(); })) {
    doc["status"] = "init_failed";
    doc["errors"] = errors;
    return doc;  // the library stays loaded until exit: unloading it buys nothing
  }
  doc["status"] = "ok";
  errors = system_document(nvml, doc);
  unsigned count = 0;
  std::vector<Device> handles;
  if (ask<CountFn>(nvml, errors, "nvmlDeviceGetCount_v2", [&](auto fn) { return fn(&count); })) {
    doc["device_count"] = count;
    json devices = json::array();
    auto handle_of = nvml.get<HandleByIndexFn>("nvmlDeviceGetHandleByIndex_v2");
    for (unsigned i = 0; i < count && i < kMaxDevices; ++i) {
      Device device = nullptr;
      const Return rc = handle_of ? handle_of(i, &device) : kErrorFunctionNotFound;
      if (rc != kSuccess) {
        devices.push_back({{"index", i},
                           {"errors", json::array({{{"call", "nvmlDeviceGetHandleByIndex_v2"},
                                                    {"rc", rc},
                                                    {"error", nvml.error_string(rc)}}})}});
        continue;
      }
      handles.push_back(device);
      devices.push_back(device_document(nvml, i, device));
    }
    doc["devices"] = devices;
  }
  json topology = json::array();
  auto ancestor = nvml.get<CommonAncestorFn>("nvmlDeviceGetTopologyCommonAncestor");
  for (std::size_t a = 0; ancestor && a < handles.size(); ++a)
    for (std::size_t b = a + 1; b < handles.size(); ++b) {
      int level = 0;
      const Return rc = ancestor(handles[a], handles[b], &level);
      if (rc == kSuccess)
        topology.push_back({{"a", a}, {"b", b}, {"level", level}});
      else
        note(nvml, errors, "nvmlDeviceGetTopologyCommonAncestor", rc);
    }
  doc["topology"] = topology;
  doc["errors"] = errors;
  if (auto shutdown = nvml.get<ShutdownFn>("nvmlShutdown")) shutdown();
  return doc;
}

}  // namespace
}  // namespace hwaccel_nvml

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
    std::puts("hwaccel-nvml document version 1");
    return 0;
  }
  if (argc > 1) {
    std::fprintf(stderr, "usage: hwaccel-nvml   (prints NVML's view of the GPUs as JSON)\n");
    return 2;
  }
  // NVML's strings are not promised to be UTF-8: a bad byte becomes U+FFFD, not a throw.
  const std::string text =
      hwaccel_nvml::document().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::printf("%s\n", text.c_str());
  return 0;
}
