// The CUDA probe's nvidia-smi follow-ups started together with the query.
//
// nvidia-smi -L is wanted whenever the query lists a GPU, topo -m when it lists
// more than one, and the addressing query on most GPUs with memory of their
// own. Each run pays NVML's start-up (23 ms on an H200), so where the kernel
// already shows the GPUs, each starts with the query (Host::run_many) and a
// detection costs one start-up, not two. A run the host cannot answer (a
// recording that never asked it: Host::knows_run) is not started early, so
// older snapshots replay exactly; an early answer the query turns out not to
// need is dropped.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/host/host.h"
#include "src/probe/nvidia_kernel_gpus.h"

namespace hwaccel {

struct CudaEarlyRuns {
  ToolRun query;                                      // the query with `fields`
  std::optional<ToolRun> list, topology, addressing;  // set: started with the query
};

CudaEarlyRuns cuda_start_with_query(Host& host, const std::vector<KernelGpu>& bus,
                                    const std::vector<std::string>& fields);

}  // namespace hwaccel
