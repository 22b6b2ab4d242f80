#include "src/probe/cuda_nvml_path.h"

#include <algorithm>
#include <map>

#include "src/probe/cuda_probe.h"
#include "src/probe/tool_outcome.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr const char* kHelper = "hwaccel-nvml";
constexpr std::size_t kMaxProblemsShown = 3;

NvmlAsked not_used(std::string why, bool warn) {
  NvmlAsked asked;
  asked.why_not = std::move(why);
  asked.warn = warn;
  return asked;
}

// "NVIDIA H100 80GB HBM3 MIG 3g.40gb" -> "3g.40gb": the profile -L prints.
std::string mig_profile_of(const std::string& name) {
  const auto at = name.rfind("MIG ");
  if (at == std::string::npos) return "";
  return std::string(trim(std::string_view(name).substr(at + 4)));
}

NvidiaSmiGpu query_row(const NvmlDocument& doc, const NvmlDevice& d) {
  NvidiaSmiGpu gpu;
  gpu.index = d.index;
  gpu.uuid = d.uuid;
  gpu.pci_bus_id = d.pci_bus_id;
  gpu.name = d.name;
  gpu.memory_not_reported = d.memory_not_supported;
  if (!d.memory_not_supported) {
    gpu.memory_total_bytes = d.memory.total;
    gpu.memory_used_bytes = d.memory.used;
    gpu.memory_free_bytes = d.memory.free;
  }
  gpu.compute_cap = d.compute_capability;
  gpu.driver_version = doc.driver_version;
  return gpu;
}

void add_mig_view(const NvmlDevice& d, NvmlView& view, NvidiaSmiQGpu& q_gpu) {
  if (d.mig_mode.value_or(0) != 1 || d.mig_devices.empty()) return;
  NvidiaListedGpu listed;
  listed.index = d.index;
  listed.name = d.name;
  listed.uuid = d.uuid;
  for (const auto& mig : d.mig_devices) {
    if (!mig.index) {
      view.problems.push_back("a MIG device of GPU " + std::to_string(d.index) +
                              " has no index; skipped");
      continue;
    }
    NvidiaMigDevice listed_mig;
    listed_mig.profile = mig_profile_of(mig.name);
    if (listed_mig.profile.empty()) listed_mig.profile = mig.name.empty() ? "MIG" : mig.name;
    listed_mig.device = *mig.index;
    listed_mig.uuid = mig.uuid;
    listed.mig_devices.push_back(std::move(listed_mig));
    NvidiaSmiQMig sized;
    sized.index = mig.index;
    sized.gpu_instance = mig.gpu_instance;
    sized.compute_instance = mig.compute_instance;
    sized.total_bytes = mig.memory.total;
    sized.free_bytes = mig.memory.free;
    q_gpu.mig_devices.push_back(sized);
  }
  view.list.gpus.push_back(std::move(listed));
}

// A failed call worth a warning: one whose answer an entry shows. NVLink, C2C,
// persistence and the rest answer "Not Supported" on many GPUs, as they should.
bool says_what_the_entry_lacks(const std::string& error, const NvmlDevice& d) {
  for (const char* call :
       {"nvmlDeviceGetUUID:", "nvmlDeviceGetPciInfo_v3:", "nvmlDeviceGetCudaComputeCapability:",
        "nvmlDeviceGetMigDeviceHandleByIndex:"})
    if (error.rfind(call, 0) == 0) return true;
  return error.rfind("nvmlDeviceGetMemoryInfo:", 0) == 0 && !d.memory_not_supported;
}

// nvmlGpuTopologyLevel_t -> topo -m's word for the PCIe path.
const char* path_of_level(int level) {
  switch (level) {
    case 10:
      return "PIX";
    case 20:
      return "PXB";
    case 30:
      return "PHB";
    case 40:
      return "NODE";
    case 50:
      return "SYS";
    default:
      return nullptr;  // 0 (the same board) has no topo -m word
  }
}

// What topo -m would say, from the same NVML calls nvidia-smi makes for it: a
// pair joined by NVLink is NV<links> (direct links to the peer, or through the
// NVSwitches: the fewer switch links of the two), else its common ancestor.
std::optional<NvidiaTopology> topology_of(const NvmlDocument& doc) {
  for (const auto& d : doc.devices)
    if (!d.affinity_asked) return std::nullopt;
  NvidiaTopology topo;
  for (const auto& d : doc.devices) topo.gpus.push_back({d.index, d.cpu_affinity, d.numa_affinity});
  auto switch_links = [](const NvmlDevice& d) {
    int n = 0;
    for (const auto& l : d.nvlinks) n += l.active && l.remote_type == "switch";
    return n;
  };
  std::map<std::pair<int, int>, int> levels;
  for (const auto& p : doc.topology)
    if (p.a >= 0 && p.b >= 0 && std::size_t(p.a) < doc.devices.size() &&
        std::size_t(p.b) < doc.devices.size())
      levels[std::minmax(doc.devices[p.a].index, doc.devices[p.b].index)] = p.level;
  for (std::size_t i = 0; i < doc.devices.size(); ++i)
    for (std::size_t j = 0; j < doc.devices.size(); ++j) {
      const NvmlDevice &a = doc.devices[i], &b = doc.devices[j];
      if (a.index >= b.index) continue;
      int lanes = 0;
      for (const auto& l : a.nvlinks)
        lanes += l.active && l.remote_type != "switch" && !b.pci_bus_id.empty() &&
                 l.remote_pci_bus_id == b.pci_bus_id;
      if (lanes == 0) lanes = std::min(switch_links(a), switch_links(b));
      NvidiaTopoLink link;
      link.a = a.index;
      link.b = b.index;
      if (lanes > 0) {
        link.kind = "nvlink";
        link.lanes = lanes;
      } else {
        auto level = levels.find({a.index, b.index});
        const char* path = level == levels.end() ? nullptr : path_of_level(level->second);
        if (!path) continue;
        link.kind = "pcie";
        link.path = path;
      }
      topo.links.push_back(std::move(link));
    }
  return topo;
}

}  // namespace

std::vector<std::string> cuda_nvml_argv() {
  return {kHelper};
}

NvmlAsked read_nvml_run(const ToolRun& run) {
  const std::string helper(kHelper);
  switch (run.outcome) {
    case ToolOutcome::not_found:
      return not_used(helper + " not found", false);
    case ToolOutcome::permission_denied:
      return not_used(cannot_run_reason(helper, run).detail, true);
    case ToolOutcome::timeout:
      return not_used(helper + " did not answer within the timeout", true);
    case ToolOutcome::signal:
      return not_used(helper + " killed by signal " + std::to_string(run.signal), true);
    case ToolOutcome::exited:
      break;
  }
  if (could_not_execute(run)) return not_used(cannot_run_reason(helper, run).detail, true);
  if (run.exit_code != 0)
    return not_used(helper + " exited with " + std::to_string(run.exit_code) + " (\"" +
                        first_meaningful_line(run.err.empty() ? run.out : run.err, 80) + "\")",
                    true);
  if (run.truncated) return not_used(helper + "'s output was cut at the host's limit", true);
  const NvmlDocument doc = parse_nvml_document(run.out);
  if (!doc.parsed)
    return not_used(helper + " printed no document it could read (" +
                        (doc.problems.empty() ? std::string("empty") : doc.problems.front()) + ")",
                    true);
  if (doc.status == "no_library")
    return not_used("libnvidia-ml.so.1 cannot be loaded (" + doc.detail + ")", false);
  if (doc.status != "ok")
    return not_used(
        "NVML did not start (" +
            (doc.errors.empty() ? doc.status.empty() ? std::string("no status") : doc.status
                                : doc.errors.front()) +
            ")",
        doc.status != "init_failed");
  if (doc.devices.empty()) return not_used("NVML lists no GPU", doc.device_count.value_or(0) > 0);
  if (doc.device_count && *doc.device_count != doc.devices.size() &&
      *doc.device_count <= kMaxNvmlDevices)
    return not_used("NVML counts " + std::to_string(*doc.device_count) + " GPUs but describes " +
                        std::to_string(doc.devices.size()),
                    true);

  NvmlView view;
  view.query.columns = cuda_query_fields();
  for (const auto& d : doc.devices) {
    if (d.name.empty()) {
      // A GPU without a name is a call that failed: nvidia-smi may know better.
      return not_used("NVML gives GPU " + std::to_string(d.index) + " no name" +
                          (d.errors.empty() ? std::string() : " (" + d.errors.front() + ")"),
                      true);
    }
    view.query.gpus.push_back(query_row(doc, d));
    // Built in place: a local moved in trips GCC 12's -Wmaybe-uninitialized on
    // the struct's std::optional members (a false positive at -O2).
    NvidiaSmiQGpu& q_gpu = view.q.gpus.emplace_back();
    q_gpu.bus_id = d.pci_bus_id;
    q_gpu.addressing_mode = d.addressing_mode;
    add_mig_view(d, view, q_gpu);
    if (!d.pci_bus_id.empty() && !d.addressing_mode.empty())
      view.modes[d.pci_bus_id] = {d.addressing_mode, "NVML's addressing mode", "tool:" + helper};
    for (const auto& error : d.errors)
      if (says_what_the_entry_lacks(error, d))
        view.problems.push_back("GPU " + std::to_string(d.index) + ": " + error);
  }
  view.topology = topology_of(doc);
  std::size_t shown = 0;
  for (const auto& problem : doc.problems)
    if (shown++ < kMaxProblemsShown) view.problems.push_back(helper + ": " + problem);
  NvmlAsked asked;
  asked.view = std::move(view);
  return asked;
}

void say_via_nvml(ProbeResult& result) {
  const std::string tool = "tool:" + std::string(kHelper);
  for (auto& entry : result.entries) {
    if (entry.api != "nvidia-smi") continue;
    entry.api = "nvml";
    // The memory code words its sources for nvidia-smi: "nvidia-smi", "nvidia-smi
    // (the GPU's own memory); ...", "nvidia-smi -q (the MIG device's ...)".
    const std::string nvml_words = "NVML (" + std::string(kHelper) + ")";
    auto& source = entry.memory.source;
    if (source == "nvidia-smi")
      source = nvml_words;
    else if (source.rfind("nvidia-smi -q (", 0) == 0)
      source = "NVML (" + std::string(kHelper) + ", " + source.substr(15);
    else if (source.rfind("nvidia-smi (", 0) == 0)
      source = "NVML (" + std::string(kHelper) + ", " + source.substr(12);
    for (auto& place : entry.provenance)
      if (place == "tool:nvidia-smi -L") place = tool;
    if (entry.reason &&
        entry.reason->detail.find("but nvidia-smi does not list it") != std::string::npos)
      entry.reason->detail = "on the PCI bus with the nvidia driver, but NVML does not list it";
  }
}

}  // namespace hwaccel
