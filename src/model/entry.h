// One device seen through one API. The same physical GPU seen through CUDA and
// Vulkan is two entries sharing one physical_id.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/model/pcie_link.h"
#include "src/model/reason.h"

namespace hwaccel {

enum class DeviceType { cpu, gpu, npu, tpu, asic, other };
std::string_view to_string(DeviceType type);

enum class MemoryKind {
  discrete,  // the device's own memory (VRAM, HBM)
  unified,   // shared with the host (GB10, Apple, APUs): total/free come from the host
  host,      // the CPU's system memory
};
std::string_view to_string(MemoryKind kind);

struct Memory {
  std::optional<std::uint64_t> total_bytes;
  std::optional<std::uint64_t> free_bytes;
  MemoryKind kind = MemoryKind::discrete;
  // Unified memory: the working-set limit; host memory (cpu:0): the cgroup limit.
  std::optional<std::uint64_t> working_set_limit_bytes;
  std::string source;  // where the numbers came from, e.g. "nvidia-smi" or "/proc/meminfo"
};

enum class EntryStatus { ready, unavailable };

// A slice of a physical device that is offered as a device of its own (an
// NVIDIA MIG instance, an AMD compute partition).
struct Partition {
  std::string profile;             // "3g.40gb", "CPX"
  std::string parent_physical_id;  // the whole device's physical_id
  int parent_index = 0;            // the whole device's index in the same backend
  // NVIDIA MIG: the GPU and compute instance ids (nvidia-smi -q), which DCGM labels
  // GPU_I_ID; unknown where only -L answered.
  std::optional<int> gpu_instance_id;
  std::optional<int> compute_instance_id;
};

struct Entry {
  std::string backend;      // "cpu", "cuda"
  std::string api;          // "host", "nvidia-smi"; later "nvml", "vulkan", ...
  int index = 0;            // ordinal within the backend
  std::string physical_id;  // "pci:0000:01:00.0", or "cpu:0", or vendor/name/ordinal
  std::string name;
  std::string vendor;
  std::optional<std::uint16_t> pci_vendor_id;
  std::optional<std::uint16_t> pci_device_id;
  std::string pci_bus_id;  // normalised "0000:01:00.0"; empty when unknown
  std::string uuid;        // GPU-... for NVIDIA; empty when unknown
  DeviceType type = DeviceType::other;
  Memory memory;
  std::string compute_class;   // "sm_90", "avx512", "sve", ...
  std::string driver_version;  // empty when unknown
  EntryStatus status = EntryStatus::ready;
  std::optional<Reason> reason;         // set when status == unavailable
  std::vector<std::string> provenance;  // files read and tools run, e.g. "file:/proc/meminfo"

  std::optional<Partition> partition;  // set on a MIG instance / compute partition
  bool partitioned = false;            // a whole device split into partitions (listed separately)
  std::optional<int> numa_node;        // from sysfs or the topology tool, when known
  std::string cpu_affinity;            // "0-55,112-167" as the topology tool prints it
  std::optional<PcieLink> pcie;        // the PCI function's link, from sysfs (src/system)
  // The ordinal the calling process's runtime opens this device by (cuDeviceGet,
  // hipSetDevice), after its visible-devices variables and CUDA_DEVICE_ORDER;
  // unset when that runtime would not show it, or for a backend without such a
  // numbering. `index` stays the backend's own order (nvidia-smi's, PCI).
  std::optional<int> ordinal;
};

// One line per backend: ready with devices, or the reason it is not.
struct BackendStatus {
  std::string name;
  bool ready = false;
  std::optional<Reason> reason;  // set when not ready
};

}  // namespace hwaccel
