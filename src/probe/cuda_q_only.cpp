#include "src/probe/cuda_q_only.h"

#include "src/probe/cuda_probe.h"
#include "src/probe/cuda_tool.h"

namespace hwaccel {

NvidiaSmiGpuQuery query_rows_from_q(const NvidiaSmiQ& q) {
  NvidiaSmiGpuQuery out;
  out.columns = {"index",        "uuid",        "pci.bus_id",  "name",
                 "memory.total", "memory.used", "memory.free", "driver_version"};
  for (const auto& gpu : q.gpus) {
    NvidiaSmiGpu row;
    row.index = static_cast<int>(out.gpus.size());  // -q lists GPUs in nvidia-smi's order
    row.uuid = gpu.uuid;
    row.pci_bus_id = gpu.bus_id;
    row.name = gpu.product_name;
    row.memory_total_bytes = gpu.total_bytes;
    row.memory_used_bytes = gpu.used_bytes;
    row.memory_free_bytes = gpu.free_bytes;
    // GB10 and Jetson print "N/A" for the FB memory: the host's memory is theirs.
    row.memory_not_reported = gpu.total_not_available;
    row.driver_version = q.driver_version;
    if (row.name.empty())
      out.problems.push_back("nvidia-smi -q: GPU " + gpu.bus_id + " has no Product Name");
    out.gpus.push_back(std::move(row));
  }
  return out;
}

std::optional<CudaQOnly> cuda_gpus_from_q(Host& host, const std::vector<std::string>& query_argv) {
  if (host.knows_run(query_argv)) return std::nullopt;
  for (auto argv : {cuda_q_argv(), std::vector<std::string>{std::string(kCudaTool), "-a"}}) {
    if (!host.knows_run(argv)) continue;
    const ToolRun run = host.run(argv);
    if (!run.ok()) continue;
    CudaQOnly out{argv, parse_nvidia_smi_q(run.out), {}};
    if (out.q.gpus.empty()) continue;
    out.query = query_rows_from_q(out.q);
    return out;
  }
  return std::nullopt;
}

void cuda_warn_unlisted_mig(const NvidiaSmiQ& q, ProbeResult& result) {
  for (const auto& gpu : q.gpus) {
    if (gpu.mig_mode_current != "Enabled") continue;
    for (auto& e : result.entries)
      if (!e.partition && e.backend == "cuda" && e.pci_bus_id == gpu.bus_id) e.partitioned = true;
    result.warnings.push_back(cuda_warning(
        "GPU " + gpu.bus_id + " is in MIG mode (nvidia-smi -q), with " +
        std::to_string(gpu.mig_devices.size()) +
        " MIG device(s); they are not listed: no nvidia-smi -L was recorded to name them"));
  }
}

}  // namespace hwaccel
