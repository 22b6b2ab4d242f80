#include "src/probe/cuda_probe.h"

#include <algorithm>
#include <optional>
#include <set>

#include "src/probe/cuda_addressing_query.h"
#include "src/probe/cuda_container_access.h"
#include "src/probe/cuda_early_runs.h"
#include "src/probe/cuda_fabric.h"
#include "src/probe/cuda_kernel_entries.h"
#include "src/probe/cuda_memory_facts.h"
#include "src/probe/cuda_mig_list.h"
#include "src/probe/cuda_mig_sizes.h"
#include "src/probe/cuda_nvml_path.h"
#include "src/probe/cuda_q_only.h"
#include "src/probe/cuda_query_entries.h"
#include "src/probe/cuda_tool.h"
#include "src/probe/cuda_topology.h"
#include "src/probe/cuda_visibility.h"
#include "src/probe/nvidia_kernel_gpus.h"
#include "src/probe/nvidia_smi_csv.h"
#include "src/probe/nvidia_smi_errors.h"
#include "src/probe/nvidia_smi_q.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {

ProbeResult CudaProbe::run(Host& host) const {
  ProbeResult result;
  result.backend.name = "cuda";

  // The GPUs the kernel shows, before any tool is asked: they decide whether
  // NVML is asked, and which nvidia-smi follow-ups start with the query.
  const auto bus = nvidia_kernel_gpus(host, false);
  // Where nvidia-smi lists no GPU, the kernel's view is all there is.
  std::optional<std::vector<KernelGpu>> kernel_view;
  auto kernel_gpus = [&]() -> const std::vector<KernelGpu>& {
    if (!kernel_view) kernel_view = nvidia_kernel_gpus(host, true);
    return *kernel_view;
  };
  // nvidia-smi gave no GPU: the kernel's GPUs, and why this process may not use them.
  auto no_gpu_listed = [&](Reason reason) {
    ProbeResult out = cuda_bus_only(host, std::move(result), kernel_gpus(), std::move(reason));
    cuda_mark_gpus_not_for_this_process(host, kernel_gpus(), out);
    return out;
  };
  auto fields = cuda_query_fields();
  // NVML first (hwaccel-nvml): one process for what nvidia-smi answers in three
  // or four. A recording made before the helper never ran it, and replays without.
  // HWACCEL_NVML=0 asks nvidia-smi only (to compare the paths).
  std::optional<NvmlView> nvml;
  if (!bus.empty() && host.knows_run(cuda_nvml_argv()) && host.env("HWACCEL_NVML") != "0") {
    NvmlAsked asked = read_nvml_run(host.run(cuda_nvml_argv()));
    if (asked.view)
      nvml = std::move(asked.view);
    else if (asked.warn)
      result.warnings.push_back(cuda_warning(asked.why_not + "; asked nvidia-smi instead"));
  }
  CudaEarlyRuns early;
  NvidiaSmiGpuQuery query;
  // A snapshot of `nvidia-smi -q` alone (no query recorded): -q lists the GPUs.
  std::optional<CudaQOnly> q_only;
  if (!nvml) q_only = cuda_gpus_from_q(host, cuda_query_argv(fields));
  if (nvml) {
    query = nvml->query;
    for (const auto& problem : nvml->problems) result.warnings.push_back(cuda_warning(problem));
  } else if (q_only) {
    query = q_only->query;
    for (const auto& problem : query.problems) result.warnings.push_back(cuda_warning(problem));
    result.warnings.push_back(cuda_warning(
        "no nvidia-smi --query-gpu run recorded: the GPUs are " + cuda_join(q_only->argv, " ") +
        "'s (no compute capability; MIG devices only where nvidia-smi -L was recorded)"));
  } else {
    early = cuda_start_with_query(host, bus, fields);
    ToolRun run = run_cuda_query(host, std::move(early.query), fields, result.warnings);
    if (run.truncated)
      result.warnings.push_back(
          cuda_warning("nvidia-smi output was cut at the host's limit; GPUs may be missing"));
    if (!run.ok()) return no_gpu_listed(cuda_run_reason(run));

    query = parse_nvidia_smi_gpu_query(run.out);
    if (std::find(query.columns.begin(), query.columns.end(), "name") == query.columns.end()) {
      if (auto known = known_nvidia_smi_error(cuda_tool_output(run))) return no_gpu_listed(*known);
      std::string detail = query.columns.empty()
                               ? "nvidia-smi printed nothing"
                               : "nvidia-smi output has no \"name\" column (first line: \"" +
                                     first_meaningful_line(run.out, 80) + "\")";
      return no_gpu_listed({ReasonCode::probe_failed, detail});
    }
    std::string missing_column;
    for (const auto& field : fields)
      if (std::find(query.columns.begin(), query.columns.end(), field) == query.columns.end()) {
        result.warnings.push_back(
            cuda_warning("nvidia-smi output has no \"" + field + "\" column"));
        if (missing_column.empty()) missing_column = field;
      }
    for (const auto& problem : query.problems)
      result.warnings.push_back(cuda_warning("nvidia-smi: " + problem));
    // No GPU row, but rows that could not be read, a header without the columns
    // asked for, or a last line cut short: the tool's output failed us (cut in
    // the middle), the GPUs did not vanish.
    if (query.gpus.empty()) {
      std::string why;
      if (!query.problems.empty())
        why = query.problems.front();
      else if (!missing_column.empty())
        why = "its header has no \"" + missing_column + "\" column";
      else if (!run.out.empty() && run.out.back() != '\n')
        why = "its output ends in the middle of a line";
      if (!why.empty())
        return no_gpu_listed(
            {ReasonCode::probe_failed, "nvidia-smi listed no GPU it could read (" + why + ")"});
    }
    if (query.gpus.empty())
      return no_gpu_listed({ReasonCode::no_device, "nvidia-smi listed no GPU"});
  }

  const std::string provenance = "tool:" + cuda_join(nvml     ? cuda_nvml_argv()
                                                     : q_only ? q_only->argv
                                                              : cuda_query_argv(fields),
                                                     " ");
  CudaHostMemory host_memory(host);
  bool any_own_memory = false;
  // A row repeating a GPU already listed (same bus id or UUID) is output
  // gone wrong (repeated, corrupt, or cut and re-sent), never a second GPU.
  std::set<std::string> seen;
  std::size_t repeated = 0;
  for (std::size_t row = 0; row < query.gpus.size(); ++row) {
    const auto& gpu = query.gpus[row];
    Entry entry = cuda_query_entry(gpu, static_cast<int>(result.entries.size()), provenance);
    std::string key = !entry.pci_bus_id.empty() ? entry.pci_bus_id : entry.uuid;
    if (!key.empty() && !seen.insert(key).second) {
      ++repeated;
      continue;
    }
    if (gpu.memory_not_reported)
      host_memory.fill(entry, result.warnings);
    else
      any_own_memory |= entry.memory.total_bytes.has_value();
    if (const KernelGpu* gpu = cuda_find_kernel_gpu(bus, entry.pci_bus_id)) {
      cuda_add_kernel_facts(host, *gpu, entry);
    }
    result.entries.push_back(std::move(entry));
  }
  if (repeated > 0)
    result.warnings.push_back(cuda_warning(
        "nvidia-smi listed " + std::to_string(repeated) +
        " row(s) for GPUs it had already listed (same bus id or UUID); kept the first of each"));
  const std::size_t whole_gpus = result.entries.size();

  // The follow-ups not started with the query start together now. NVML answered
  // -L's and the addressing query's questions, and topo -m's where the helper
  // asked the affinity too: then no nvidia-smi runs at all.
  const bool ask_topology = whole_gpus > 1;
  const bool nvml_topology = nvml && nvml->topology;
  const bool ask_addressing =
      any_own_memory &&
      (cuda_driver_major(result.entries).value_or(0) >= kCudaAddressingModeDriver ||
       cuda_coherence_possible(host, bus, result.entries));
  // From -q alone, only the runs the snapshot has (-q already told the addressing mode).
  auto wanted = [&](const std::vector<std::string>& argv) {
    return !q_only || host.knows_run(argv);
  };
  const bool ask_list = !nvml && wanted(cuda_list_argv());
  const bool ask_addressing_query = ask_addressing && !q_only;
  const bool run_topology = ask_topology && !nvml_topology && wanted(cuda_topology_argv());
  std::vector<std::vector<std::string>> late;
  if (!early.list && ask_list) late.push_back(cuda_list_argv());
  if (run_topology && !early.topology) late.push_back(cuda_topology_argv());
  if (ask_addressing_query && !early.addressing && !nvml)
    late.push_back(cuda_addressing_mode_argv());
  auto late_runs = host.run_many(late);
  std::size_t next_late = 0;
  auto take = [&](std::optional<ToolRun>& started) {
    if (started) return std::move(*started);
    return next_late < late_runs.size() ? std::move(late_runs[next_late++]) : ToolRun{};
  };
  // Their answers are applied in a fixed order, whichever run ended first.
  const ToolRun list = ask_list ? take(early.list) : ToolRun{};
  const ToolRun topology = run_topology ? take(early.topology) : ToolRun{};
  const ToolRun addressing = ask_addressing_query && !nvml ? take(early.addressing) : ToolRun{};
  if (ask_topology && nvml_topology)
    cuda_apply_topology(*nvml->topology, "tool:" + cuda_join(cuda_nvml_argv(), " "), result);
  else if (run_topology)
    cuda_add_topology(topology, result);
  if (ask_topology) add_fabric_from_bus(host, result);  // topo -m gave no links
  // After topology: slices inherit the affinity.
  if (nvml)
    cuda_add_listed_mig(nvml->list, result);
  else if (ask_list)
    cuda_add_mig_instances(list, result);
  if (q_only && !ask_list) {  // -q alone: its MIG Device blocks are the MIG devices
    cuda_add_listed_mig(cuda_mig_list_from_q(q_only->q), result,
                        "tool:" + cuda_join(q_only->argv, " "));
    cuda_warn_unlisted_mig(q_only->q, result);
  }
  AddressingModes modes = nvml ? nvml->modes : AddressingModes{};
  const bool addressing_unknown =
      q_only.has_value() || (ask_addressing_query && !nvml &&
                             cuda_read_addressing_mode(addressing, modes, result.warnings));
  // nvidia-smi -q, once, for what only it tells: MIG devices' own memory, and
  // the addressing mode where the driver has no query field for it.
  const bool any_mig = std::any_of(result.entries.begin(), result.entries.end(),
                                   [](const Entry& e) { return e.partition.has_value(); });
  std::optional<NvidiaSmiQ> q;
  if (nvml) q = nvml->q;
  if (q_only) q = q_only->q;
  const std::string q_provenance = "tool:" + cuda_join(nvml     ? cuda_nvml_argv()
                                                       : q_only ? q_only->argv
                                                                : cuda_q_argv(),
                                                       " ");
  if (!nvml && !q_only && (any_mig || addressing_unknown)) {
    const ToolRun run_q = host.run(cuda_q_argv());
    if (run_q.ok())
      q = parse_nvidia_smi_q(run_q.out);
    else
      result.warnings.push_back(
          cuda_warning("nvidia-smi -q failed (" + cuda_reason_text(cuda_run_reason(run_q)) + ")" +
                       (any_mig ? "; MIG sizes from the other places" : "; ATS unknown")));
  }
  if (any_mig) apply_mig_memory(q ? &*q : nullptr, q_provenance, result);
  if (any_mig) cuda_mig_sizes_without_q(host, result);  // the table, then mig -lgip
  if (q && addressing_unknown) cuda_addressing_from_q(*q, q_provenance, modes);
  if (ask_addressing) addressing_from_kernel(bus, result.entries, modes);
  apply_addressing(modes, result);

  cuda_add_unlisted_kernel_gpus(host, bus, result);
  cuda_mark_gpus_not_for_this_process(host, bus, result);  // a container's other GPUs

  if (nvml) say_via_nvml(result);
  const auto visible_devices = host.env("CUDA_VISIBLE_DEVICES");
  cuda_apply_visible_devices(visible_devices, host.env("CUDA_DEVICE_ORDER"), result);
  cuda_settle_backend(result, visible_devices);
  return result;
}

}  // namespace hwaccel
