// The CUDA probe's step 1 into entries: one ready entry per GPU row of the
// --query-gpu table, and host memory for GPUs without memory of their own.
#pragma once

#include <string>
#include <vector>

#include "src/host/host.h"
#include "src/probe/host_meminfo.h"
#include "src/probe/nvidia_smi_csv.h"
#include "src/probe/probe.h"

namespace hwaccel {

// A ready, discrete GPU entry from one query row (`row` is its index where the
// row has none).
Entry cuda_query_entry(const NvidiaSmiGpu& gpu, int row, const std::string& provenance);

// GB10 and Jetson report no memory of their own: the GPU uses the host's.
// /proc/meminfo is read once however many such GPUs there are.
class CudaHostMemory {
 public:
  explicit CudaHostMemory(Host& host) : meminfo_(host) {}

  // Makes `gpu` unified with the host's total and available memory.
  void fill(Entry& gpu, std::vector<Warning>& warnings);

 private:
  HostMeminfo meminfo_;
};

}  // namespace hwaccel
