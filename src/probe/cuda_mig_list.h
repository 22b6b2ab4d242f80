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

// The same from a list already read (-L's, NVML's in its shape: cuda_nvml_path,
// or -q's: cuda_q_only), with that source's provenance. A device without a
// profile name (-q's that no table row names) is called "MIG device N".
void cuda_add_listed_mig(const NvidiaSmiList& list, ProbeResult& result,
                         const std::string& provenance = "tool:nvidia-smi -L");

}  // namespace hwaccel
