// The CUDA probe's step 3: nvidia-smi topo -m (or NVML's same answers) into links between whole
// GPUs and each GPU's CPU and NUMA affinity.
#pragma once

#include <string>

#include "src/host/host.h"
#include "src/probe/nvidia_smi_topo.h"
#include "src/probe/probe.h"

namespace hwaccel {

// Applies `run` (nvidia-smi topo -m) to the whole GPUs of `result`; a failed
// run is a warning. Links end sorted.
void cuda_add_topology(const ToolRun& run, ProbeResult& result);

// Applies a topology read from `provenance` ("tool:nvidia-smi topo -m", or NVML's
// answers through hwaccel-nvml) the same way.
void cuda_apply_topology(const NvidiaTopology& topo, const std::string& provenance,
                         ProbeResult& result);

}  // namespace hwaccel
