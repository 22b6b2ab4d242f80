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
#include "nvml/nvml_fields.h"
#include "nvml/nvml_mig_profiles.h"
#include "nvml/nvml_q_facts.h"
#include "src/host/host.h"
#include "src/model/link.h"
#include "src/probe/nvidia_smi_processes.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::nvml {

inline constexpr std::size_t kNoSwitch = static_cast<std::size_t>(-1);  // not on the bus

struct NvLinkLane {
  bool to_switch = false;  // an NVSwitch fabric: the remote end is a switch port
  std::size_t remote = 0;  // direct link: the peer's position in Model::gpus;
                           // switch: the switch's position in Model::switches
};

// An NVSwitch on the host's PCI bus (NVIDIA, class 0x0680).
struct NvSwitch {
  std::string bus_id;  // "0000:05:00.0"
  std::uint16_t pci_device = 0;
};

// A MIG GPU instance (from the instance ids -q or the table recorded) and its
// compute instances, each one of the MIG devices.
struct GpuInstance {
  std::size_t gpu = 0;  // the whole GPU's position in Model::gpus
  unsigned id = 0;
  const GiProfile* profile = nullptr;
  std::optional<Placement> placement;
  std::vector<std::size_t> compute;  // positions in Model::compute_instances
};

struct ComputeInstance {
  std::size_t gpu_instance = 0;  // position in Model::gpu_instances
  std::size_t device = 0;        // the MIG device's position in Model::gpus
  unsigned id = 0;
  unsigned profile_index = 0;  // NVML_COMPUTE_INSTANCE_PROFILE_*
  Placement placement;
};

struct Gpu {
  bool is_mig = false;
  unsigned index = 0;  // NVML index (whole GPUs); the MIG device's index on its parent
  std::string name, uuid, bus_id, driver_version;  // bus_id as "0000:1b:00.0"
  std::uint16_t pci_vendor = 0, pci_device = 0;
  std::optional<std::uint32_t> pci_subsystem;  // subsystem device << 16 | vendor (sysfs)
  std::optional<std::uint64_t> memory_total, memory_free;
  std::optional<std::uint64_t> memory_reserved;  // -q's Reserved, else the query's remainder
  bool unified_memory = false;                   // GB10: NVML has no framebuffer to report
  std::optional<int> cc_major, cc_minor;
  std::optional<int> numa_node;
  std::vector<unsigned> cpus;  // the CPU affinity, as CPU numbers
  std::optional<unsigned> minor_number;
  std::optional<unsigned> irq;  // the driver's information file's IRQ
  bool mig_capable = false, mig_enabled = false;
  std::vector<std::size_t> mig_devices;  // MIG instances (positions in Model::gpus)
  std::size_t parent = 0;                // MIG instance: the whole GPU's position
  std::optional<unsigned> gpu_instance_id, compute_instance_id;
  std::string mig_profile;
  const MigTable* mig_table = nullptr;      // whole GPUs whose MIG profiles are known
  std::vector<NvLinkLane> nvlinks;          // link number -> its far end
  QFacts q;                                 // what a recorded `nvidia-smi -q` adds (whole GPUs)
  std::optional<unsigned> addressing_mode;  // NVML_DEVICE_ADDRESSING_MODE_*, driver 580 on
  // The monitoring figures recorded for the whole GPU (nvml_fields.h): a recorded
  // --query-gpu's cells, else what the recorded -q printed for the same field.
  Cells cells;
  // The compute processes a recorded --query-compute-apps lists on the whole GPU
  // (src/probe/nvidia_smi_processes.h); none where nothing was recorded.
  std::vector<RecordedProcess> processes;
  std::optional<unsigned> pci_class;
  // The PCIe link the detection read from sysfs (generation, width; current and max).
  std::optional<int> pcie_gen_current, pcie_gen_max, pcie_width_current,
      pcie_width_max;  // sysfs `class` >> 8: 0x0302 (3D), 0x0300 (VGA)
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
  std::vector<NvSwitch> switches;  // in bus order
  // What nvmlInit takes on the recorded host (hwsim run --latency): a recorded
  // hwaccel-nvml run's ms, else the quickest recorded nvidia-smi run's (each pays
  // NVML's start-up; its own exec and output are in the figure too). 0: unknown.
  std::int64_t init_ms = 0;
  std::vector<GpuInstance> gpu_instances;
  std::vector<ComputeInstance> compute_instances;
  // When the snapshot was taken (recorded_time.h), microseconds since 1970: the
  // time stamp of every sample NVML reports. nullopt: the snapshot holds no time.
  std::optional<std::uint64_t> recorded_us;
};

// The recorded monitoring figures of `snapshot` (every recorded `nvidia-smi
// --query-gpu` with a header, over the -q cells already in Gpu::q; then the
// getters a recorded hwaccel-nvml asked, for fields those lack), the compute
// processes of a recorded --query-compute-apps (else hwaccel-nvml's), and its time.
void add_recorded_monitoring(const Snapshot& snapshot, Model& model);

// The model of `host` (a SnapshotHost): runs the cuda probe on it.
Model build_model(Host& host);

// NVLink lanes from the topology's links between whole GPUs (`by_id`: physical_id ->
// position in model.gpus): a GPU with more lanes in all than NVML_NVLINK_MAX_LINKS
// sits on an NVSwitch fabric (every link ends at a switch), else its links go to
// its peers in peer order. PCIe paths between them go to model.pcie_paths.
void lay_out_nvlinks(const std::vector<Link>& links,
                     const std::map<std::string, std::size_t>& by_id, Model& model);

// GPU and compute instances of the MIG devices whose GPU instance id is known,
// on GPUs with a MIG profile table (model.gpu_instances, compute_instances).
void lay_out_mig_instances(Model& model);

// The init latency `snapshot` stands for (Model::init_ms).
std::int64_t init_latency_ms(const Snapshot& snapshot);

// Where the snapshot is: $HWSIM_NVML_SNAPSHOT, else $HWSIM_ROOT/.hwsim/snapshot.yaml
// (hwsim run), else /.hwsim/snapshot.yaml. A snapshot that cannot be read fails
// init with NVML_ERROR_DRIVER_NOT_LOADED and the reason in `why`.
Model load_model();

// "None"/"HMM"/"ATS" -> NVML_DEVICE_ADDRESSING_MODE_*; nullopt otherwise.
std::optional<unsigned> addressing_mode_of(std::string_view text);

// The CUDA version a driver branch supports (580 -> 13000), from NVIDIA's
// release notes; nullopt for a branch not in the table.
std::optional<int> cuda_version_of_driver(const std::string& driver_version);
// NVML's version string for a driver: "<CUDA major>.<driver version>".
std::string nvml_version_of(const Model& model);
unsigned architecture_of(const Gpu& gpu);
int brand_of(const Gpu& gpu);

}  // namespace hwaccel::nvml
