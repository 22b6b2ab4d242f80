// What the snapshot-backed libnvidia-ml answers from: hwaccel's own detection
// (the cuda backend) replayed on the simulated host's snapshot, turned into the
// GPUs NVML would enumerate. Built once per nvmlInit; the C entry points
// (nvml_api.cpp) only read it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nvml/nvml_abi.h"
#include "src/host/host.h"

namespace hwaccel::nvml {

struct NvLinkLane {
  bool to_switch = false;  // an NVSwitch fabric: the remote end is a switch port
  std::size_t remote = 0;  // direct link: the peer's position in Model::gpus
};

struct Gpu {
  bool is_mig = false;
  unsigned index = 0;  // NVML index (whole GPUs); the MIG device's index on its parent
  std::string name, uuid, bus_id, driver_version;  // bus_id as "0000:1b:00.0"
  std::uint16_t pci_vendor = 0, pci_device = 0;
  std::optional<std::uint32_t> pci_subsystem;  // subsystem device << 16 | vendor (sysfs)
  std::optional<std::uint64_t> memory_total, memory_free;
  bool unified_memory = false;  // GB10: NVML has no framebuffer to report
  std::optional<int> cc_major, cc_minor;
  std::optional<int> numa_node;
  std::vector<unsigned> cpus;  // the CPU affinity, as CPU numbers
  std::optional<unsigned> minor_number;
  bool mig_capable = false, mig_enabled = false;
  std::vector<std::size_t> mig_devices;  // MIG instances (positions in Model::gpus)
  std::size_t parent = 0;                // MIG instance: the whole GPU's position
  std::optional<unsigned> gpu_instance_id, compute_instance_id;
  std::string mig_profile;
  std::vector<NvLinkLane> nvlinks;  // link number -> its far end
};

struct Model {
  nvmlReturn_t init_result = NVML_SUCCESS;
  std::string why;  // the detection's reason where init fails
  std::string driver_version;
  std::optional<int> cuda_driver_version;  // 12040 for CUDA 12.4
  std::vector<Gpu> gpus;                   // whole GPUs (NVML index order), then MIG instances
  std::size_t whole_gpus = 0;
  // PCIe relationship between two whole GPUs, as the topology tool named it (PIX, PXB, ...).
  std::map<std::pair<std::size_t, std::size_t>, std::string> pcie_paths;
};

// The model of `host` (a SnapshotHost): runs the cuda probe on it.
Model build_model(Host& host);

// Where the snapshot is: $HWSIM_NVML_SNAPSHOT, else $HWSIM_ROOT/.hwsim/snapshot.yaml
// (hwsim run), else /.hwsim/snapshot.yaml. A snapshot that cannot be read fails
// init with NVML_ERROR_DRIVER_NOT_LOADED and the reason in `why`.
Model load_model();

// The CUDA version a driver branch supports (580 -> 13000), from NVIDIA's
// release notes; nullopt for a branch not in the table.
std::optional<int> cuda_version_of_driver(const std::string& driver_version);
// NVML's version string for a driver: "<CUDA major>.<driver version>".
std::string nvml_version_of(const Model& model);
unsigned architecture_of(const Gpu& gpu);
int brand_of(const Gpu& gpu);

}  // namespace hwaccel::nvml
