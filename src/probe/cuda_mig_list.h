// The CUDA probe's step 2: MIG devices from nvidia-smi -L, one ready entry
// each under its parent GPU (which is marked partitioned). Their sizes come
// later (cuda_memory_facts).
#pragma once

#include "src/host/host.h"
#include "src/probe/nvidia_smi_list.h"
#include "src/probe/probe.h"

namespace hwaccel {

// Appends the MIG devices `run` (nvidia-smi -L) lists; a failed run is a warning.
void cuda_add_mig_instances(const ToolRun& run, ProbeResult& result);

// The same from a list already read (-L's, or NVML's in its shape: cuda_nvml_path).
void cuda_add_listed_mig(const NvidiaSmiList& list, ProbeResult& result);

}  // namespace hwaccel
