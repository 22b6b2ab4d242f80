// The CUDA probe's NVML path: hwaccel-nvml (tools/hwaccel_nvml) run through the
// Host like any tool, its document (cuda_nvml_doc.h) read into the shapes the
// nvidia-smi path reads its runs into, so both paths build entries with the
// same code. One process answers what takes nvidia-smi three or four runs, each
// paying NVML's start-up. When the helper is absent, cannot load NVML, fails,
// times out or prints what cannot be trusted, the probe asks nvidia-smi as
// before; `why_not` says why, and `warn` whether that is worth a warning (a
// machine without the helper or without libnvidia-ml is not).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/host/host.h"
#include "src/probe/cuda_memory_facts.h"
#include "src/probe/cuda_nvml_doc.h"
#include "src/probe/nvidia_smi_csv.h"
#include "src/probe/nvidia_smi_list.h"
#include "src/probe/nvidia_smi_q.h"
#include "src/probe/nvidia_smi_topo.h"
#include "src/probe/probe.h"

namespace hwaccel {

// hwaccel-nvml, exactly as the probe runs it (and snapshots record it).
std::vector<std::string> cuda_nvml_argv();

struct NvmlView {
  NvidiaSmiGpuQuery query;  // as `nvidia-smi --query-gpu=...` would read
  NvidiaSmiList list;       // as `nvidia-smi -L`: the MIG devices
  NvidiaSmiQ q;             // as `nvidia-smi -q`: MIG sizes
  AddressingModes modes;    // nvmlDeviceGetAddressingMode, by bus id
  // As `nvidia-smi topo -m` (NVLink peers, common ancestors, CPU and NUMA
  // affinity); nullopt where the document lacks the affinity (older helpers).
  std::optional<NvidiaTopology> topology;
  std::vector<std::string> problems;  // what the document said wrong, and the calls that failed
};

struct NvmlAsked {
  std::optional<NvmlView> view;  // set: NVML answered
  std::string why_not;
  bool warn = false;
};

// Reads a run of cuda_nvml_argv(); the document must list at least one GPU.
NvmlAsked read_nvml_run(const ToolRun& run);

// Entries built from NVML's answers say so: api "nvml", provenance and memory
// source hwaccel-nvml (where the nvidia-smi path says nvidia-smi).
void say_via_nvml(ProbeResult& result);

}  // namespace hwaccel
