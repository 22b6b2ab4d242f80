// `nvidia-smi -q` (or `-a`) as the list of GPUs where no --query-gpu run was
// recorded: the capture people post most. A replayed snapshot made from such a
// capture knows -q and not the query; without this its GPUs would be listed
// from the bus as tool-not-found. A live host knows every run, so this never
// runs there (the query answers, or says why not).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/host/host.h"
#include "src/probe/nvidia_smi_csv.h"
#include "src/probe/nvidia_smi_q.h"
#include "src/probe/probe.h"

namespace hwaccel {

// The GPUs of a parsed -q as query rows: index in -q's order, UUID, bus id,
// name, FB memory total/used/free, the driver version. No compute capability
// (-q has none; the catalogue's SKU supplies it).
NvidiaSmiGpuQuery query_rows_from_q(const NvidiaSmiQ& q);

struct CudaQOnly {
  std::vector<std::string> argv;  // the run that answered: {"nvidia-smi", "-q"} or "-a"
  NvidiaSmiQ q;
  NvidiaSmiGpuQuery query;
};

// The -q (else -a) run, when the host knows it and not `query_argv`, and it
// lists at least one GPU; nullopt otherwise (nothing run).
std::optional<CudaQOnly> cuda_gpus_from_q(Host& host, const std::vector<std::string>& query_argv);

// Where -q says a GPU's MIG mode is on and no -L was recorded to list its MIG
// devices: the GPU is marked partitioned (the whole GPU is not a CUDA device
// then) and a warning says its MIG devices are not listed.
void cuda_warn_unlisted_mig(const NvidiaSmiQ& q, ProbeResult& result);

}  // namespace hwaccel
