// What the nvidia-smi emulator answers from: the host's NVIDIA GPUs as nvidia-smi
// would number and name them, gathered once from hwaccel's detection (replayed
// from the snapshot) and from the nvidia-smi outputs the snapshot recorded, which
// may hold more (a recorded --query-gpu field answers any later query of it).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/emulate/tool_emulator.h"
#include "src/probe/nvidia_smi_processes.h"

namespace hwaccel::sim {

struct NvMig {
  int device = 0;  // the MIG device's number under its GPU (-L's "Device N")
  std::string profile;
  std::string uuid;
  std::optional<int> gpu_instance_id, compute_instance_id;
  std::optional<std::uint64_t> total_mib, free_mib;
};

// One per-GPU section of a recorded `nvidia-smi -q`: its title and its lines as
// recorded (the title line included).
struct NvQSection {
  std::string title;
  std::string text;
};

struct NvGpu {
  int index = 0;
  std::string name, uuid;
  std::string bus_id;  // nvidia-smi's form: "00000000:1B:00.0"; "" when unknown
  std::optional<std::uint16_t> pci_device_id, pci_vendor_id;
  std::optional<std::uint64_t> total_mib, used_mib, free_mib;
  std::string compute_cap;  // "9.0"
  std::optional<int> numa_node;
  std::string cpu_affinity;
  std::optional<int> pcie_gen_current, pcie_gen_max, pcie_width_current, pcie_width_max;
  std::vector<NvMig> migs;
  // Recorded --query-gpu cells by field name, as printed with units ("81559 MiB").
  std::map<std::string, std::string> recorded;
  // The compute processes a recorded --query-compute-apps lists on this GPU, in
  // its order (src/probe/nvidia_smi_processes.h); none where none was recorded.
  std::vector<RecordedProcess> processes;
  // The sections of a recorded `nvidia-smi -q` for this GPU, in its order; none
  // where no -q was recorded (sim/emulate/nvidia_smi_sections.h).
  std::vector<NvQSection> q_sections;
};

struct NvModel {
  std::string driver_version;             // "" when unknown
  std::string cuda_version;               // "" when unknown
  std::vector<NvGpu> gpus;                // by index
  std::vector<Link> links;                // NVLink and PCIe paths between GPUs (by physical id)
  std::vector<std::string> physical_ids;  // gpus[i]'s physical id, for `links`
  // Set where the real tool fails on this host for every argv (no driver, a
  // version mismatch): that answer, as recorded or as nvidia-smi words it.
  std::optional<ToolAnswer> failure;
};

NvModel nvidia_model(const EmulatedHost& host);

// "9.0" from "sm_90", "12.1" from "sm_121"; "" otherwise.
std::string compute_cap_of(const std::string& compute_class);
// "00000000:1B:00.0" from "0000:1b:00.0" (nvidia-smi's 8-digit upper-case form).
std::string nvsmi_bus_id(const std::string& sysfs_bus_id);
// The CUDA version a driver branch ships with (NVIDIA's release notes); "" unknown.
std::string cuda_version_of_driver(const std::string& driver_version);

// nvidia-smi's "no driver" answer, every argv: its words on stdout, exit 9.
ToolAnswer nvidia_smi_no_driver();

}  // namespace hwaccel::sim
