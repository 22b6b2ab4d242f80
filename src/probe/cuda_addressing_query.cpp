#include "src/probe/cuda_addressing_query.h"

#include <algorithm>

#include "src/probe/cuda_probe.h"
#include "src/probe/cuda_tool.h"
#include "src/probe/nvidia_smi_csv.h"
#include "src/probe/nvidia_smi_errors.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {

std::optional<int> cuda_driver_major(const std::vector<Entry>& entries) {
  for (const auto& e : entries) {
    auto dot = e.driver_version.find('.');
    auto major = parse_u64(std::string_view(e.driver_version).substr(0, dot));
    if (major && *major < 100000) return static_cast<int>(*major);
  }
  return std::nullopt;
}

bool cuda_coherence_possible(Host& host, const std::vector<KernelGpu>& kernel,
                             const std::vector<Entry>& entries) {
  const std::string& arch = host.facts().arch;
  if (arch == "aarch64" || arch.rfind("ppc64", 0) == 0) return true;
  for (const auto& gpu : kernel)
    if (gpu.numa_status && gpu.numa_status->node) return true;
  for (const auto& e : entries)
    if (e.pci_device_id && is_superchip_gpu(*e.pci_device_id)) return true;
  return false;
}

bool cuda_read_addressing_mode(const ToolRun& run, AddressingModes& modes,
                               std::vector<Warning>& warnings) {
  if (!run.ok()) {
    const auto rejected = rejected_query_fields(cuda_tool_output(run));
    if (std::find(rejected.begin(), rejected.end(), "addressing_mode") != rejected.end())
      return true;
    warnings.push_back(cuda_warning("nvidia-smi could not report addressing_mode (" +
                                    cuda_reason_text(cuda_run_reason(run)) + "); ATS unknown"));
    return false;
  }
  auto table = parse_nvidia_smi_csv(run.out);
  auto bus_column = table.column("pci.bus_id");
  auto mode_column = table.column("addressing_mode");
  if (!bus_column || !mode_column) return true;
  const std::string provenance = "tool:" + cuda_join(cuda_addressing_mode_argv(), " ");
  for (const auto& row : table.rows) {
    const std::string bus = normalise_pci_bus_id(row[*bus_column]);
    const std::string& mode = row[*mode_column];
    if (bus.empty() || (mode != "ATS" && mode != "HMM" && mode != "None")) continue;
    modes[bus] = {mode, "the addressing_mode query", provenance};
  }
  return false;
}

void cuda_addressing_from_q(const NvidiaSmiQ& q, const std::string& provenance,
                            AddressingModes& modes) {
  for (const auto& gpu : q.gpus)
    if (!gpu.addressing_mode.empty() && !modes.count(gpu.bus_id))
      modes[gpu.bus_id] = {gpu.addressing_mode, "nvidia-smi -q's Addressing Mode", provenance};
}

}  // namespace hwaccel
