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
#include "src/probe/nvidia_smi_list.h"
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

// The MIG devices -q lists ("MIG Device" blocks), in -L's shape, for a host
// where no -L was recorded: GPU index in -q's order, each device's index. -q
// prints no profile name and no MIG UUID: the profile is the GPU's MIG profile
// table's row with that memory and SM count (src/catalog/mig_profiles.h), ""
// where no row matches (a compute instance smaller than its GPU instance, a GPU
// without a table); the UUID stays "".
NvidiaSmiList cuda_mig_list_from_q(const NvidiaSmiQ& q);

// Where -q says a GPU's MIG mode is on and no -L was recorded: the GPU is
// marked partitioned (the whole GPU is not a CUDA device then) and a warning
// says its MIG devices come from -q alone (no UUIDs), or that -q lists none.
void cuda_warn_unlisted_mig(const NvidiaSmiQ& q, ProbeResult& result);

}  // namespace hwaccel
