#include "src/probe/cuda_q_only.h"

#include "src/catalog/mig_profiles.h"
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

namespace {

// The profile whose size and SMs a -q MIG device shows: a "+me" row only where
// no plain row matches (the two differ in media engines, which -q prints as
// counts too, but the plain one is what a device of that size usually is).
std::string profile_of(const mig::MigTable* table, const NvidiaSmiQMig& mig) {
  if (!table || !mig.total_bytes || !mig.sms) return "";
  std::string media;
  for (const auto& p : table->profiles) {
    if (p.memory_mib != (*mig.total_bytes >> 20) || p.sms != unsigned(*mig.sms)) continue;
    const std::string name = p.name;
    if (name.find('+') == std::string::npos) return name;
    if (media.empty()) media = name;
  }
  return media;
}

}  // namespace

NvidiaSmiList cuda_mig_list_from_q(const NvidiaSmiQ& q) {
  NvidiaSmiList list;
  for (std::size_t i = 0; i < q.gpus.size(); ++i) {
    const NvidiaSmiQGpu& gpu = q.gpus[i];
    if (gpu.mig_devices.empty()) continue;
    NvidiaListedGpu listed;
    listed.index = static_cast<int>(i);  // query_rows_from_q's numbering
    listed.name = gpu.product_name;
    listed.uuid = gpu.uuid;
    const mig::MigTable* table = mig::mig_sizes_table_for(gpu.product_name, gpu.total_bytes);
    for (std::size_t k = 0; k < gpu.mig_devices.size(); ++k) {
      const NvidiaSmiQMig& mig = gpu.mig_devices[k];
      NvidiaMigDevice device;
      device.device = mig.index.value_or(static_cast<int>(k));
      device.profile = profile_of(table, mig);
      listed.mig_devices.push_back(std::move(device));
    }
    list.gpus.push_back(std::move(listed));
  }
  return list;
}

void cuda_warn_unlisted_mig(const NvidiaSmiQ& q, ProbeResult& result) {
  for (const auto& gpu : q.gpus) {
    if (gpu.mig_mode_current != "Enabled") continue;
    for (auto& e : result.entries)
      if (!e.partition && e.backend == "cuda" && e.pci_bus_id == gpu.bus_id) e.partitioned = true;
    result.warnings.push_back(cuda_warning(
        gpu.mig_devices.empty()
            ? "GPU " + gpu.bus_id +
                  " is in MIG mode (nvidia-smi -q), and -q lists no MIG device; no nvidia-smi -L "
                  "was recorded to list them"
            : "GPU " + gpu.bus_id + " is in MIG mode (nvidia-smi -q): its " +
                  std::to_string(gpu.mig_devices.size()) +
                  " MIG device(s) are listed from -q alone, without MIG UUIDs (no nvidia-smi -L "
                  "was recorded); profiles named from the GPU's MIG profile table where its "
                  "memory and SM count match a row"));
  }
}

}  // namespace hwaccel
