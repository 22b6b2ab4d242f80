// The document hwaccel-nvml prints (tools/hwaccel_nvml): NVML's answers for
// every GPU in one JSON object, versioned by its "hwaccel_nvml" member:
//
//   {"hwaccel_nvml": 1, "status": "ok", "driver_version": "580.159.04",
//    "cuda_driver_version": "13.0", "device_count": 1,
//    "devices": [{"index": 0, "name": "NVIDIA H200", "uuid": "GPU-...",
//                 "pci_bus_id": "00000000:00:06.0", "pci_device_id": 590418142,
//                 "memory_total": 150754820096, "memory_used": ..., "memory_free": ...,
//                 "compute_capability": "9.0", "mig_mode": 0,
//                 "mig_devices": [{"index": 0, "name": "... MIG 3g.71gb", "uuid": "MIG-...",
//                                  "gpu_instance_id": 1, "compute_instance_id": 0,
//                                  "memory_total": ..., "memory_free": ...}],
//                 "nvlinks": [{"link": 0, "active": true, "remote_pci_bus_id": "...",
//                              "remote_type": "gpu" | "switch"}],
//                 "cpu_affinity": "0-55,112-167", "numa_affinity": 0,
//                 "addressing_mode": "None", "c2c_enabled": false,
//                 "persistence_mode": true, "compute_mode": 0,
//                 "monitor": {"temperature.gpu": "52", "power.draw.instant": "625.24", ...},
//                 "processes": [{"pid": 10291, "used_memory": 2690646016, "name": "..."}],
//                 "errors": [{"call": "nvmlDeviceGetMemoryInfo", "rc": 3,
//                             "error": "Not Supported"}]}],
//    "topology": [{"a": 0, "b": 1, "level": 40}], "errors": []}
//
// The text comes from a program on the machine (or a snapshot), so it is
// hostile: bounded in size, depth, counts and string lengths; a member of the
// wrong type is left unknown and said so in `problems`; nothing throws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

inline constexpr std::size_t kMaxNvmlDocumentBytes = 4u << 20;
inline constexpr std::size_t kMaxNvmlDevices = 64;
inline constexpr std::size_t kMaxNvmlMigDevices = 64;
inline constexpr std::size_t kMaxNvmlLinks = 18;
inline constexpr std::size_t kMaxNvmlErrors = 256;
inline constexpr std::size_t kMaxNvmlString = 256;
inline constexpr std::size_t kMaxNvmlMonitorCells = 64;
inline constexpr std::size_t kMaxNvmlMonitorText = 64;  // a field name or a cell
inline constexpr std::size_t kMaxNvmlProcesses = 256;

struct NvmlMemory {
  std::optional<std::uint64_t> total, used, free;
};

struct NvmlMigDevice {
  std::optional<int> index;
  std::string name, uuid;
  std::optional<int> gpu_instance, compute_instance;
  NvmlMemory memory;
};

struct NvmlLink {
  int link = 0;
  bool active = false;
  std::string remote_pci_bus_id;  // normalised; "" when not given
  std::string remote_type;        // "gpu", "switch"; "" when not given
};

// A compute process NVML listed (nvmlDeviceGetComputeRunningProcesses).
struct NvmlProcess {
  unsigned pid = 0;
  std::optional<std::uint64_t> used_memory;  // bytes
  std::string name;                          // "" when NVML gave none
};

struct NvmlDevice {
  int index = 0;
  std::string name, uuid;
  std::string pci_bus_id;                      // normalised ("0000:00:06.0"); "" when unknown
  std::optional<std::uint32_t> pci_device_id;  // (device << 16) | vendor, as NVML gives it
  NvmlMemory memory;
  std::string compute_capability;  // "9.0"
  std::optional<int> mig_mode;     // 1: MIG on
  std::vector<NvmlMigDevice> mig_devices;
  std::vector<NvmlLink> nvlinks;
  std::string addressing_mode;  // "ATS", "HMM", "None"; "" when unknown
  std::optional<bool> c2c_enabled, persistence_mode;
  std::optional<int> compute_mode;
  // nvmlDeviceGetCpuAffinity as topo -m prints it ("0-55,112-167"), nvmlDeviceGetMemoryAffinity's
  // one node; `affinity_asked`: the document has the members (older helpers did not ask).
  bool affinity_asked = false;
  std::string cpu_affinity;
  std::optional<int> numa_affinity;
  std::vector<std::string> errors;  // "nvmlDeviceGetMemoryInfo: Not Supported (3)"
  // The monitoring getters' answers (tools/hwaccel_nvml/nvml_monitor.h): nvidia-smi's
  // --query-gpu field names and cells ("temperature.gpu" -> "52", "[N/A]"), in
  // the document's order; and the compute processes. Empty where not asked.
  std::vector<std::pair<std::string, std::string>> monitor;
  std::vector<NvmlProcess> processes;
  // nvmlDeviceGetMemoryInfo said NVML_ERROR_NOT_SUPPORTED (3): GB10 and Jetson,
  // whose GPU has no memory of its own.
  bool memory_not_supported = false;
};

struct NvmlTopologyPair {
  int a = 0, b = 0;  // device indices
  int level = 0;     // nvmlGpuTopologyLevel_t: 0 internal .. 50 system
};

struct NvmlDocument {
  bool parsed = false;  // a JSON object with "hwaccel_nvml": 1
  int version = 0;
  std::string status;  // "ok", "no_library", "init_failed"
  std::string detail;  // why, for the last two
  std::string driver_version, cuda_driver_version;
  std::optional<std::size_t> device_count;
  std::vector<NvmlDevice> devices;
  std::vector<NvmlTopologyPair> topology;
  std::vector<std::string> errors;    // system-wide calls that failed
  std::vector<std::string> problems;  // what could not be read, "devices[2].uuid: not a string"
};

NvmlDocument parse_nvml_document(std::string_view text);

}  // namespace hwaccel
