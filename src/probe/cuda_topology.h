// The CUDA probe's step 3: nvidia-smi topo -m into links between whole GPUs
// and each GPU's CPU and NUMA affinity.
#pragma once

#include "src/host/host.h"
#include "src/probe/probe.h"

namespace hwaccel {

// Applies `run` (nvidia-smi topo -m) to the whole GPUs of `result`; a failed
// run is a warning. Links end sorted.
void cuda_add_topology(const ToolRun& run, ProbeResult& result);

}  // namespace hwaccel
