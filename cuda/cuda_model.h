// What the snapshot-backed libcuda.so.1 answers from: the simulated NVML's device
// model (nvml/nvml_model.h, so both doors name one device with one UUID and one
// memory figure), the SKU catalogue's SM counts, and the CUDA enumeration rule
// (src/probe/cuda_visible.h) applied to the process's environment. Built once
// per cuInit; the entry points (cuda_api.cpp, cuda_memory.cpp) read it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuda/cuda_abi.h"
#include "nvml/nvml_model.h"

namespace hwaccel::cuda {

struct Device {
  std::string name, uuid;   // uuid as nvidia-smi -L prints it ("GPU-...", "MIG-...")
  CUuuid uuid_bytes{};      // cuDeviceGetUuid_v2: the MIG device's own on MIG
  CUuuid gpu_uuid_bytes{};  // cuDeviceGetUuid: the whole GPU's
  bool is_mig = false;
  std::size_t parent = 0;  // MIG device: its whole GPU's position in Model::devices
  bool mig_enabled = false;
  unsigned domain = 0, bus = 0, device = 0, function = 0;
  std::uint16_t pci_vendor = 0x10de, pci_device = 0;
  std::uint32_t pci_subsystem = 0;
  std::uint64_t total = 0, free = 0;  // bytes; free as recorded, before our allocations
  bool unified = false;               // GB10: device memory is the host's (MemAvailable)
  bool coherent = false;              // ATS/HMM addressing (GH200, GB10): pageable access
  int cc_major = 0, cc_minor = 0;
  unsigned multiprocessors = 0;                                               // 0: unknown
  unsigned clock_khz = 0, memory_clock_khz = 0, bus_width = 0, l2_bytes = 0;  // 0: unknown
  std::optional<int> numa_node;
  int compute_mode = 0;
  bool datacenter = false;  // no display watchdog, ECC on
};

struct P2P {
  bool access = false, atomics = false;
  int rank = 0;  // CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK: 0 is the best link
};

struct Model {
  CUresult init_result = CUDA_SUCCESS;
  std::string why;
  int driver_version = 0;            // cuDriverGetVersion: 13000 for CUDA 13.0; 0 unknown
  std::vector<Device> devices;       // whole GPUs (NVML order), then MIG devices
  std::vector<std::size_t> visible;  // CUDA ordinal -> position in devices
  std::map<std::pair<std::size_t, std::size_t>, P2P> p2p;  // by positions in devices
};

// The CUDA view of `nvml` under CUDA_VISIBLE_DEVICES / CUDA_DEVICE_ORDER values
// (nullopt: unset). Pure: the tests build it from fixtures.
Model make_model(const nvml::Model& nvml, const std::optional<std::string>& visible_devices,
                 const std::optional<std::string>& device_order);

// The model of this process: the snapshot at $HWSIM_CUDA_SNAPSHOT, else
// $HWSIM_NVML_SNAPSHOT, else $HWSIM_ROOT/.hwsim/snapshot.yaml, else
// /.hwsim/snapshot.yaml, and this process's CUDA_VISIBLE_DEVICES/CUDA_DEVICE_ORDER.
Model load_model();

// "GPU-8932f937-d72c-4106-c12f-20bd9faed9f6" -> its 16 bytes; nullopt otherwise.
std::optional<CUuuid> uuid_bytes_of(const std::string& uuid);

}  // namespace hwaccel::cuda
