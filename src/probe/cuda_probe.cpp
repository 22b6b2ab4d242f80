#include "src/probe/cuda_probe.h"

#include <algorithm>
#include <optional>
#include <set>

#include "src/catalog/nvidia_pci_ids.h"
#include "src/probe/cuda_fabric.h"
#include "src/probe/cuda_memory_facts.h"
#include "src/probe/cuda_nvml_path.h"
#include "src/probe/gpu_numa_memory.h"
#include "src/probe/host_meminfo.h"
#include "src/probe/nvidia_kernel_gpus.h"
#include "src/probe/nvidia_smi_csv.h"
#include "src/probe/nvidia_smi_errors.h"
#include "src/probe/nvidia_smi_list.h"
#include "src/probe/nvidia_smi_q.h"
#include "src/probe/nvidia_smi_topo.h"
#include "src/probe/nvidia_visible_devices.h"
#include "src/probe/pci_bus.h"
#include "src/probe/text_util.h"

namespace hwaccel {
namespace {

constexpr std::string_view kTool = "nvidia-smi";
constexpr std::string_view kMeminfo = "/proc/meminfo";
constexpr std::uint16_t kNvidiaPciVendor = 0x10de;
// addressing_mode is a query field from driver 580 on (nvmlDeviceGetAddressingMode).
constexpr int kAddressingModeDriver = 580;

Warning cuda_warning(std::string message) {
  return Warning{"cuda", std::move(message)};
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string joined;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) joined += separator;
    joined += parts[i];
  }
  return joined;
}

// nvidia-smi writes its complaints to stdout; stderr rarely says more.
std::string all_output(const ToolRun& run) {
  if (run.err.empty()) return run.out;
  return run.out + "\n" + run.err;
}

// Why a run that did not succeed gave us no table.
Reason reason_for_outcome(const ToolRun& run) {
  switch (run.outcome) {
    case ToolOutcome::not_found:
      return {ReasonCode::tool_not_found, "nvidia-smi not found on PATH"};
    case ToolOutcome::timeout:
      return {ReasonCode::timeout, "nvidia-smi did not answer within the timeout"};
    case ToolOutcome::signal:
      return {ReasonCode::probe_failed,
              "nvidia-smi killed by signal " + std::to_string(run.signal)};
    case ToolOutcome::permission_denied:
      return {ReasonCode::permission_denied, "nvidia-smi may not be run by this user"};
    case ToolOutcome::exited:
      break;
  }
  return classify_nvidia_smi_failure(all_output(run), run.exit_code);
}

std::string reason_text_of(const Reason& reason) {
  std::string text(to_string(reason.code));
  if (!reason.detail.empty()) text += ": " + reason.detail;
  return text;
}

// Runs the query; when an old driver rejects fields, drops them and asks again,
// once per field at most. `fields` ends as the list of the last run.
// `run` is the first answer, to the full list.
ToolRun run_query(Host& host, ToolRun run, std::vector<std::string>& fields,
                  std::vector<Warning>& warnings) {
  const std::size_t max_retries = fields.size();
  for (std::size_t retry = 0; retry < max_retries; ++retry) {
    if (run.outcome != ToolOutcome::exited || run.exit_code == 0) break;
    bool dropped = false;
    for (const auto& field : rejected_query_fields(all_output(run))) {
      auto at = std::find(fields.begin(), fields.end(), field);
      if (at == fields.end()) continue;
      fields.erase(at);
      dropped = true;
      warnings.push_back(cuda_warning("nvidia-smi rejected field \"" + field +
                                      "\" (old driver?); retried without it"));
    }
    if (!dropped || fields.empty()) break;
    run = host.run(cuda_query_argv(fields));
  }
  return run;
}

// GB10 and Jetson report no memory of their own: the GPU uses the host's.
// /proc/meminfo is read once however many such GPUs there are.
class HostMemory {
 public:
  explicit HostMemory(Host& host) : meminfo_(host) {}

  void fill(Entry& gpu, std::vector<Warning>& warnings) {
    gpu.memory.kind = MemoryKind::unified;
    gpu.memory.total_bytes.reset();  // half a figure from nvidia-smi would mislead
    gpu.memory.free_bytes.reset();
    gpu.memory.source.clear();
    gpu.provenance.push_back("file:" + std::string(kMeminfo));
    std::string why_not;
    const auto& info = meminfo_.get(why_not);
    if (!info) {
      warnings.push_back(cuda_warning("GPU " + std::to_string(gpu.index) +
                                      " shares host memory but " + std::string(kMeminfo) +
                                      " cannot be read (" + why_not + "); memory unknown"));
      return;
    }
    gpu.memory.total_bytes = info->total_bytes;
    gpu.memory.free_bytes = info->available_bytes;
    gpu.memory.source =
        std::string(kMeminfo) + (info->available_estimated ? " (MemTotal, MemFree+Buffers+Cached)"
                                                           : " (MemTotal, MemAvailable)");
  }

 private:
  HostMeminfo meminfo_;
};

std::string physical_id_of(const NvidiaSmiGpu& gpu, int index) {
  if (!gpu.pci_bus_id.empty()) return "pci:" + gpu.pci_bus_id;
  if (!gpu.uuid.empty()) return "nvidia:" + gpu.uuid;
  return "cuda:" + std::to_string(index);
}

Entry make_entry(const NvidiaSmiGpu& gpu, int row, const std::string& provenance) {
  Entry entry;
  entry.backend = "cuda";
  entry.api = std::string(kTool);
  entry.index = gpu.index.value_or(row);
  entry.physical_id = physical_id_of(gpu, entry.index);
  entry.name = gpu.name;
  entry.vendor = "NVIDIA";
  entry.pci_vendor_id = kNvidiaPciVendor;
  entry.pci_bus_id = gpu.pci_bus_id;
  entry.uuid = gpu.uuid;
  entry.type = DeviceType::gpu;
  entry.memory.kind = MemoryKind::discrete;
  entry.memory.total_bytes = gpu.memory_total_bytes;
  entry.memory.free_bytes = gpu.memory_free_bytes;
  entry.memory.source = std::string(kTool);
  entry.compute_class = compute_class_from_cap(gpu.compute_cap);
  entry.driver_version = gpu.driver_version;
  entry.status = EntryStatus::ready;
  entry.provenance.push_back(provenance);
  return entry;
}

ProbeResult unavailable(ProbeResult result, Reason reason) {
  result.backend.ready = false;
  result.backend.reason = std::move(reason);
  result.entries.clear();
  return result;
}

// ---- The kernel: GPUs whatever nvidia-smi says -----------------------------

const KernelGpu* find_kernel_gpu(const std::vector<KernelGpu>& gpus, const std::string& address) {
  if (address.empty()) return nullptr;
  for (const auto& gpu : gpus)
    if (gpu.address == address) return &gpu;
  return nullptr;
}

// The GPU's memory as a NUMA node (numa_status): where it is reachable from
// the CPUs. Where nothing else gives the GPU a size, the node's does.
void note_memory_node(Host& host, const KernelGpu& gpu, Entry& entry) {
  if (!gpu.numa_status || !gpu.numa_status->node) return;
  GpuMemoryNode node;
  node.node = *gpu.numa_status->node;
  node.gpu_address = gpu.address;
  node.status = gpu.numa_status->status;
  const std::string meminfo =
      std::string(kNumaNodesDir) + "/node" + std::to_string(node.node) + "/meminfo";
  if (auto text = host.read(meminfo)) node.memory = parse_node_meminfo(*text);
  const std::string where = "reachable as " + gpu_memory_node_text(node);
  if (!entry.memory.total_bytes && node.memory.total_bytes && *node.memory.total_bytes > 0) {
    entry.memory.total_bytes = node.memory.total_bytes;
    entry.memory.free_bytes = node.memory.free_bytes;
    entry.memory.source = meminfo + " (the GPU's memory, " + where + ")";
    entry.provenance.push_back("file:" + meminfo);
    return;
  }
  entry.memory.source += entry.memory.source.empty() ? where : "; " + where;
}

void take_kernel_ids(const KernelGpu& gpu, Entry& entry) {
  if (gpu.device_id) entry.pci_device_id = gpu.device_id;
  if (gpu.numa_node) entry.numa_node = gpu.numa_node;
  for (const auto& place : gpu.provenance)
    if (place.rfind("file:" + std::string(kPciDevicesDir), 0) == 0)
      entry.provenance.push_back(place);
}

Entry bus_entry(Host& host, const KernelGpu& gpu, int index) {
  Entry entry;
  entry.backend = "cuda";
  entry.api = std::string(kTool);
  entry.index = index;
  entry.physical_id = gpu.address.empty() ? "nvidia:" + gpu.device_node : "pci:" + gpu.address;
  entry.vendor = "NVIDIA";
  entry.pci_vendor_id = kNvidiaPciVendor;
  entry.pci_bus_id = gpu.address;
  entry.type = DeviceType::gpu;
  entry.status = EntryStatus::unavailable;
  entry.pci_device_id = gpu.device_id;
  entry.numa_node = gpu.numa_node;
  if (gpu.device_id) entry.name = nvidia_pci_device_name(*gpu.device_id);
  if (gpu.info) {
    if (!gpu.info->model.empty()) entry.name = gpu.info->model;
    entry.uuid = gpu.info->uuid;
  }
  entry.provenance = gpu.provenance;
  if (entry.name.empty()) entry.name = "NVIDIA GPU";
  note_memory_node(host, gpu, entry);
  return entry;
}

// What says the nvidia driver holds a GPU: its sysfs link, else the module's
// own files. "" when nothing does.
std::string driver_evidence(const KernelGpu& gpu) {
  if (gpu.driver == "nvidia") return "the nvidia driver is bound to " + gpu.address;
  if (!gpu.module_holds) return "";
  if (!gpu.device_node.empty()) return gpu.device_node + " exists: the nvidia module is loaded";
  return "the nvidia module lists " + gpu.address + " in " + std::string(kNvidiaProcGpus);
}

// Why a kernel GPU is not usable when nvidia-smi is not on PATH: the driver tells.
Reason reason_without_tool(const KernelGpu& gpu) {
  if (auto held = driver_evidence(gpu); !held.empty())
    return {ReasonCode::tool_not_found, "nvidia-smi not found on PATH (" + held + ")"};
  if (gpu.driver.empty())
    return {ReasonCode::driver_not_found,
            "no driver bound to " + gpu.address + " (nvidia-smi not found)"};
  return {ReasonCode::driver_not_found,
          gpu.address + " is bound to " + gpu.driver + ", not nvidia (nvidia-smi not found)"};
}

// nvidia-smi gave no GPU: every GPU the kernel shows is a line of its own,
// unavailable with the tool's reason. Without any, the backend line alone.
ProbeResult bus_only(Host& host, ProbeResult result, const std::vector<KernelGpu>& seen,
                     Reason reason) {
  if (seen.empty()) return unavailable(std::move(result), std::move(reason));

  result.entries.clear();
  bool any_driver = false;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    Entry entry = bus_entry(host, seen[i], static_cast<int>(i));
    if (reason.code == ReasonCode::tool_not_found) {
      entry.reason = reason_without_tool(seen[i]);
    } else {
      entry.reason = reason;
      if (driver_evidence(seen[i]).empty() && seen[i].driver.empty())  // what the bus adds
        entry.reason->detail += " (no driver bound to " + seen[i].address + ")";
    }
    any_driver |= entry.reason->code == ReasonCode::tool_not_found;
    result.entries.push_back(std::move(entry));
  }
  result.backend.ready = false;
  if (reason.code == ReasonCode::tool_not_found && !any_driver) {
    const auto n = seen.size();
    reason = {ReasonCode::driver_not_found,
              std::to_string(n) + (n == 1 ? " NVIDIA GPU" : " NVIDIA GPUs") +
                  " on the PCI bus without the nvidia driver; nvidia-smi not found"};
  }
  result.backend.reason = std::move(reason);
  return result;
}

// ---- MIG: nvidia-smi -L -----------------------------------------------------

int next_index(const std::vector<Entry>& entries) {
  int next = 0;
  for (const auto& e : entries) next = std::max(next, e.index + 1);
  return next;
}

void add_listed_mig(const NvidiaSmiList& list, ProbeResult& result);

void add_mig_instances(const ToolRun& run, ProbeResult& result) {
  if (!run.ok()) {
    result.warnings.push_back(cuda_warning("nvidia-smi -L failed (" +
                                           reason_text_of(reason_for_outcome(run)) +
                                           "); MIG instances, if any, are not listed"));
    return;
  }
  auto list = parse_nvidia_smi_list(run.out);
  for (const auto& problem : list.problems)
    result.warnings.push_back(cuda_warning("nvidia-smi -L: " + problem));
  add_listed_mig(list, result);
}

// The MIG devices of `list` (nvidia-smi -L's, or NVML's in its shape).
void add_listed_mig(const NvidiaSmiList& list, ProbeResult& result) {
  const std::size_t whole = result.entries.size();
  int index = next_index(result.entries);
  for (const auto& listed : list.gpus) {
    if (listed.mig_devices.empty()) continue;
    Entry* parent = nullptr;
    for (std::size_t i = 0; i < whole; ++i)
      if (result.entries[i].index == listed.index) parent = &result.entries[i];
    if (!parent) {
      result.warnings.push_back(cuda_warning("nvidia-smi -L lists MIG devices under GPU " +
                                             std::to_string(listed.index) +
                                             ", which the query did not list; skipped"));
      continue;
    }
    parent->partitioned = true;
    const Entry parent_copy = *parent;  // push_back below may move the vector
    const std::string parent_key =
        parent_copy.pci_bus_id.empty() ? parent_copy.physical_id : parent_copy.pci_bus_id;
    for (const auto& mig : listed.mig_devices) {
      Entry entry;
      entry.backend = "cuda";
      entry.api = std::string(kTool);
      entry.index = index++;
      entry.physical_id = "mig:" + parent_key + "/" + std::to_string(mig.device);
      entry.name = parent_copy.name + " MIG " + mig.profile;
      entry.vendor = "NVIDIA";
      entry.pci_vendor_id = parent_copy.pci_vendor_id;
      entry.pci_device_id = parent_copy.pci_device_id;
      entry.pci_bus_id = parent_copy.pci_bus_id;
      entry.uuid = mig.uuid;
      entry.type = DeviceType::gpu;
      entry.memory.kind = MemoryKind::discrete;
      // The size: apply_mig_memory, once nvidia-smi -q has been asked.
      entry.compute_class = parent_copy.compute_class;
      entry.driver_version = parent_copy.driver_version;
      entry.status = EntryStatus::ready;
      entry.provenance.push_back("tool:nvidia-smi -L");
      entry.partition = Partition{mig.profile, parent_copy.physical_id, parent_copy.index, {}, {}};
      entry.numa_node = parent_copy.numa_node;
      entry.cpu_affinity = parent_copy.cpu_affinity;
      result.entries.push_back(std::move(entry));
    }
  }
}

// ---- Topology: nvidia-smi topo -m -------------------------------------------

void add_topology(const ToolRun& run, ProbeResult& result) {
  if (!run.ok()) {
    result.warnings.push_back(cuda_warning("nvidia-smi topo -m failed (" +
                                           reason_text_of(reason_for_outcome(run)) +
                                           "); no links between GPUs"));
    return;
  }
  auto topo = parse_nvidia_smi_topo(run.out);
  for (const auto& problem : topo.problems)
    result.warnings.push_back(cuda_warning("nvidia-smi topo -m: " + problem));
  auto whole_gpu = [&](int index) -> Entry* {
    for (auto& e : result.entries)
      if (!e.partition && e.index == index) return &e;
    return nullptr;
  };
  const std::string provenance = "tool:nvidia-smi topo -m";
  for (const auto& gpu : topo.gpus) {
    Entry* e = whole_gpu(gpu.gpu);
    if (!e) continue;
    e->cpu_affinity = gpu.cpu_affinity;
    if (!e->numa_node) e->numa_node = gpu.numa_node;  // sysfs first: it is per device
    e->provenance.push_back(provenance);
  }
  for (const auto& link : topo.links) {
    Entry* a = whole_gpu(link.a);
    Entry* b = whole_gpu(link.b);
    if (!a || !b) {
      result.warnings.push_back(cuda_warning("nvidia-smi topo -m: GPU" + std::to_string(link.a) +
                                             "-GPU" + std::to_string(link.b) +
                                             " names a GPU the query did not list"));
      continue;
    }
    Link l;
    l.a = std::min(a->physical_id, b->physical_id);
    l.b = std::max(a->physical_id, b->physical_id);
    l.kind = link.kind;
    l.lanes = link.lanes;
    l.path = link.path;
    l.source = provenance;
    result.links.push_back(std::move(l));
  }
  std::sort(result.links.begin(), result.links.end());
}

// ---- Addressing mode: ATS (GH200) -------------------------------------------

std::optional<int> driver_major(const std::vector<Entry>& entries) {
  for (const auto& e : entries) {
    auto dot = e.driver_version.find('.');
    auto major = parse_u64(std::string_view(e.driver_version).substr(0, dot));
    if (major && *major < 100000) return static_cast<int>(*major);
  }
  return std::nullopt;
}

// Where ATS could be at all: a GPU joined coherently to its CPU (Grace over
// NVLink-C2C, POWER9 over NVLink 2.0). On an x86 host behind PCIe it cannot,
// so an old driver there is not asked a field it would reject.
bool coherence_possible(Host& host, const std::vector<KernelGpu>& kernel,
                        const std::vector<Entry>& entries) {
  const std::string& arch = host.facts().arch;
  if (arch == "aarch64" || arch.rfind("ppc64", 0) == 0) return true;
  for (const auto& gpu : kernel)
    if (gpu.numa_status && gpu.numa_status->node) return true;
  for (const auto& e : entries)
    if (e.pci_device_id && is_superchip_gpu(*e.pci_device_id)) return true;
  return false;
}

// The query's answer into `modes`. True when the driver does not know the
// field (rejected, or no such column): nvidia-smi -q is the next place to look.
bool read_addressing_mode(const ToolRun& run, AddressingModes& modes,
                          std::vector<Warning>& warnings) {
  if (!run.ok()) {
    const auto rejected = rejected_query_fields(all_output(run));
    if (std::find(rejected.begin(), rejected.end(), "addressing_mode") != rejected.end())
      return true;
    warnings.push_back(cuda_warning("nvidia-smi could not report addressing_mode (" +
                                    reason_text_of(reason_for_outcome(run)) + "); ATS unknown"));
    return false;
  }
  auto table = parse_nvidia_smi_csv(run.out);
  auto bus_column = table.column("pci.bus_id");
  auto mode_column = table.column("addressing_mode");
  if (!bus_column || !mode_column) return true;
  const std::string provenance = "tool:" + join(cuda_addressing_mode_argv(), " ");
  for (const auto& row : table.rows) {
    const std::string bus = normalise_pci_bus_id(row[*bus_column]);
    const std::string& mode = row[*mode_column];
    if (bus.empty() || (mode != "ATS" && mode != "HMM" && mode != "None")) continue;
    modes[bus] = {mode, "the addressing_mode query", provenance};
  }
  return false;
}

void addressing_from_q(const NvidiaSmiQ& q, const std::string& provenance, AddressingModes& modes) {
  for (const auto& gpu : q.gpus)
    if (!gpu.addressing_mode.empty() && !modes.count(gpu.bus_id))
      modes[gpu.bus_id] = {gpu.addressing_mode, "nvidia-smi -q's Addressing Mode", provenance};
}

// ---- Runs started with the query ---------------------------------------------

struct EarlyRuns {
  ToolRun query;
  std::optional<ToolRun> list, topology, addressing;  // set: started with the query
};

// nvidia-smi -L is wanted whenever the query lists a GPU, topo -m when it lists
// more than one, and the addressing query on most GPUs with memory of their own:
// where the kernel shows GPUs, each starts with the query, so detection costs one
// nvidia-smi start-up (NVML's), not two. A run the host cannot answer (an older
// recording that never asked it) is not started early, so replays stay exact;
// an early answer the query turns out not to need is dropped.
EarlyRuns start_with_query(Host& host, const std::vector<KernelGpu>& bus,
                           const std::vector<std::string>& fields) {
  std::size_t on_bus = 0;
  for (const auto& gpu : bus) on_bus += gpu.address.empty() ? 0 : 1;
  std::vector<std::vector<std::string>> argvs = {cuda_query_argv(fields)};
  const bool list = !bus.empty() && host.knows_run(cuda_list_argv());
  const bool topology = on_bus > 1 && host.knows_run(cuda_topology_argv());
  const bool addressing = !bus.empty() && host.knows_run(cuda_addressing_mode_argv());
  if (list) argvs.push_back(cuda_list_argv());
  if (topology) argvs.push_back(cuda_topology_argv());
  if (addressing) argvs.push_back(cuda_addressing_mode_argv());
  auto runs = argvs.size() == 1 ? std::vector<ToolRun>{host.run(argvs.front())}
                                : host.run_many(argvs);
  runs.resize(argvs.size());
  EarlyRuns early;
  std::size_t at = 0;
  early.query = std::move(runs[at++]);
  if (list) early.list = std::move(runs[at++]);
  if (topology) early.topology = std::move(runs[at++]);
  if (addressing) early.addressing = std::move(runs[at++]);
  return early;
}

// ---- CUDA_VISIBLE_DEVICES ---------------------------------------------------

void apply_visible_devices(const std::string& value, ProbeResult& result) {
  auto parsed = parse_cuda_visible_devices(value);
  std::vector<bool> visible(result.entries.size(), false);
  auto show = [&](std::size_t i) {
    visible[i] = true;
    if (result.entries[i].partition) return;
    for (std::size_t j = 0; j < result.entries.size(); ++j)  // a whole GPU shows its MIG slices
      if (result.entries[j].partition &&
          result.entries[j].partition->parent_physical_id == result.entries[i].physical_id)
        visible[j] = true;
  };
  const std::string shown = "CUDA_VISIBLE_DEVICES=" + printable_line(value, 120);
  std::string stopped_at = parsed.stopped_at;
  bool stopped = parsed.stopped;
  for (const auto& token : parsed.tokens) {
    std::vector<std::size_t> matches;
    for (std::size_t i = 0; i < result.entries.size(); ++i) {
      const Entry& e = result.entries[i];
      if (e.status != EntryStatus::ready) continue;
      if (token.is_index ? (!e.partition && e.index == token.index)
                         : (!e.uuid.empty() && e.uuid.rfind(token.uuid, 0) == 0))
        matches.push_back(i);
    }
    if (matches.size() != 1) {
      stopped = true;
      stopped_at = token.is_index ? std::to_string(token.index) : token.uuid;
      break;
    }
    show(matches.front());
  }
  if (stopped)
    result.warnings.push_back(cuda_warning(shown + ": \"" + stopped_at +
                                           "\" names no single device; CUDA ignores it and "
                                           "every entry after it"));
  for (std::size_t i = 0; i < result.entries.size(); ++i) {
    Entry& e = result.entries[i];
    if (visible[i] || e.status != EntryStatus::ready) continue;
    e.status = EntryStatus::unavailable;
    e.reason = Reason{ReasonCode::not_visible,
                      "hidden by " + (value.empty() ? shown + "\"\" (empty: no device)" : shown)};
  }
}

// The backend line once the entries are known.
void settle_backend(ProbeResult& result, const std::optional<std::string>& visible_devices) {
  result.backend.ready = std::any_of(result.entries.begin(), result.entries.end(),
                                     [](const Entry& e) { return e.status == EntryStatus::ready; });
  if (result.backend.ready || result.entries.empty()) return;
  const bool all_hidden = std::all_of(
      result.entries.begin(), result.entries.end(),
      [](const Entry& e) { return e.reason && e.reason->code == ReasonCode::not_visible; });
  if (all_hidden && visible_devices) {
    result.backend.reason =
        Reason{ReasonCode::not_visible, "every GPU is hidden by CUDA_VISIBLE_DEVICES=" +
                                            printable_line(*visible_devices, 120)};
    return;
  }
  for (const auto& e : result.entries)
    if (e.reason && e.reason->code != ReasonCode::not_visible) {
      result.backend.reason = e.reason;
      return;
    }
  result.backend.reason = result.entries.front().reason;
}

}  // namespace

std::vector<std::string> cuda_query_argv(const std::vector<std::string>& fields) {
  return {std::string(kTool), "--query-gpu=" + join(fields, ","), "--format=csv"};
}

std::vector<std::string> cuda_list_argv() {
  return {std::string(kTool), "-L"};
}

std::vector<std::string> cuda_topology_argv() {
  return {std::string(kTool), "topo", "-m"};
}

std::vector<std::string> cuda_q_argv() {
  return {std::string(kTool), "-q"};
}

std::vector<std::string> cuda_addressing_mode_argv() {
  return {std::string(kTool), "--query-gpu=pci.bus_id,addressing_mode", "--format=csv"};
}

ProbeResult CudaProbe::run(Host& host) const {
  ProbeResult result;
  result.backend.name = "cuda";

  // The GPUs the kernel shows, before nvidia-smi is asked: they say which
  // follow-up runs will be wanted, so those start together with the query.
  const auto bus = nvidia_kernel_gpus(host, false);
  // Where nvidia-smi lists no GPU, the kernel's view is all there is.
  std::optional<std::vector<KernelGpu>> kernel_view;
  auto kernel_gpus = [&]() -> const std::vector<KernelGpu>& {
    if (!kernel_view) kernel_view = nvidia_kernel_gpus(host, true);
    return *kernel_view;
  };
  auto fields = cuda_query_fields();
  // NVML first, through hwaccel-nvml, where the kernel shows a GPU: one process
  // for what nvidia-smi answers in three or four. A recording made before the
  // helper existed never ran it, and is replayed without it (knows_run).
  std::optional<NvmlView> nvml;
  if (!bus.empty() && host.knows_run(cuda_nvml_argv())) {
    NvmlAsked asked = read_nvml_run(host.run(cuda_nvml_argv()));
    if (asked.view)
      nvml = std::move(asked.view);
    else if (asked.warn)
      result.warnings.push_back(cuda_warning(asked.why_not + "; asked nvidia-smi instead"));
  }
  EarlyRuns early;
  NvidiaSmiGpuQuery query;
  if (nvml) {
    query = nvml->query;
    for (const auto& problem : nvml->problems) result.warnings.push_back(cuda_warning(problem));
  } else {
    early = start_with_query(host, bus, fields);
    ToolRun run = run_query(host, std::move(early.query), fields, result.warnings);
    if (run.truncated)
      result.warnings.push_back(
          cuda_warning("nvidia-smi output was cut at the host's limit; GPUs may be missing"));
    if (!run.ok()) return bus_only(host, std::move(result), kernel_gpus(), reason_for_outcome(run));

    query = parse_nvidia_smi_gpu_query(run.out);
    if (std::find(query.columns.begin(), query.columns.end(), "name") == query.columns.end()) {
      if (auto known = known_nvidia_smi_error(all_output(run)))
        return bus_only(host, std::move(result), kernel_gpus(), *known);
      std::string detail = query.columns.empty()
                               ? "nvidia-smi printed nothing"
                               : "nvidia-smi output has no \"name\" column (first line: \"" +
                                     first_meaningful_line(run.out, 80) + "\")";
      return bus_only(host, std::move(result), kernel_gpus(), {ReasonCode::probe_failed, detail});
    }
    std::string missing_column;
    for (const auto& field : fields)
      if (std::find(query.columns.begin(), query.columns.end(), field) == query.columns.end()) {
        result.warnings.push_back(cuda_warning("nvidia-smi output has no \"" + field + "\" column"));
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
        return bus_only(
            host, std::move(result), kernel_gpus(),
            {ReasonCode::probe_failed, "nvidia-smi listed no GPU it could read (" + why + ")"});
    }
    if (query.gpus.empty())
      return bus_only(host, std::move(result), kernel_gpus(),
                      {ReasonCode::no_device, "nvidia-smi listed no GPU"});
  }
  const std::string provenance =
      "tool:" + join(nvml ? cuda_nvml_argv() : cuda_query_argv(fields), " ");
  HostMemory host_memory(host);
  bool any_own_memory = false;
  // A row repeating a GPU already listed (same bus id or UUID) is output
  // gone wrong (repeated, corrupt, or cut and re-sent), never a second GPU.
  std::set<std::string> seen;
  std::size_t repeated = 0;
  for (std::size_t row = 0; row < query.gpus.size(); ++row) {
    const auto& gpu = query.gpus[row];
    Entry entry = make_entry(gpu, static_cast<int>(result.entries.size()), provenance);
    std::string key = !entry.pci_bus_id.empty() ? entry.pci_bus_id : entry.uuid;
    if (!key.empty() && !seen.insert(key).second) {
      ++repeated;
      continue;
    }
    if (gpu.memory_not_reported)
      host_memory.fill(entry, result.warnings);
    else
      any_own_memory |= entry.memory.total_bytes.has_value();
    if (const KernelGpu* gpu = find_kernel_gpu(bus, entry.pci_bus_id)) {
      take_kernel_ids(*gpu, entry);
      note_memory_node(host, *gpu, entry);
    }
    result.entries.push_back(std::move(entry));
  }
  if (repeated > 0)
    result.warnings.push_back(cuda_warning(
        "nvidia-smi listed " + std::to_string(repeated) +
        " row(s) for GPUs it had already listed (same bus id or UUID); kept the first of each"));
  const std::size_t whole_gpus = result.entries.size();

  // The follow-ups not started with the query start together now (docs/performance.md).
  const bool ask_topology = whole_gpus > 1;
  const bool ask_addressing =
      any_own_memory && (driver_major(result.entries).value_or(0) >= kAddressingModeDriver ||
                         coherence_possible(host, bus, result.entries));
  // NVML answered -L's and the addressing query's questions; topo -m's CPU and
  // NUMA affinity it does not give, so a host of several GPUs still asks it.
  std::vector<std::vector<std::string>> late;
  if (!early.list && !nvml) late.push_back(cuda_list_argv());
  if (ask_topology && !early.topology) late.push_back(cuda_topology_argv());
  if (ask_addressing && !early.addressing && !nvml) late.push_back(cuda_addressing_mode_argv());
  auto late_runs = host.run_many(late);
  std::size_t next_late = 0;
  auto take = [&](std::optional<ToolRun>& started) {
    if (started) return std::move(*started);
    return next_late < late_runs.size() ? std::move(late_runs[next_late++]) : ToolRun{};
  };
  const ToolRun list = nvml ? ToolRun{} : take(early.list);
  const ToolRun topology = ask_topology ? take(early.topology) : ToolRun{};
  const ToolRun addressing = ask_addressing && !nvml ? take(early.addressing) : ToolRun{};
  if (ask_topology) add_topology(topology, result);
  if (ask_topology) add_fabric_from_bus(host, result);  // topo -m gave no links
  // After topology: slices inherit the affinity.
  if (nvml)
    add_listed_mig(nvml->list, result);
  else
    add_mig_instances(list, result);
  AddressingModes modes = nvml ? nvml->modes : AddressingModes{};
  const bool addressing_unknown =
      ask_addressing && !nvml && read_addressing_mode(addressing, modes, result.warnings);
  // nvidia-smi -q, once, for what only it tells: MIG devices' own memory, and
  // the addressing mode where the driver has no query field for it.
  const bool any_mig = std::any_of(result.entries.begin(), result.entries.end(),
                                   [](const Entry& e) { return e.partition.has_value(); });
  std::optional<NvidiaSmiQ> q;
  if (nvml) q = nvml->q;
  const std::string q_provenance = "tool:" + join(nvml ? cuda_nvml_argv() : cuda_q_argv(), " ");
  if (!nvml && (any_mig || addressing_unknown)) {
    const ToolRun run_q = host.run(cuda_q_argv());
    if (run_q.ok())
      q = parse_nvidia_smi_q(run_q.out);
    else
      result.warnings.push_back(cuda_warning(
          "nvidia-smi -q failed (" + reason_text_of(reason_for_outcome(run_q)) + ")" +
          (any_mig ? "; MIG sizes estimated from the profile names" : "; ATS unknown")));
  }
  if (any_mig) apply_mig_memory(q ? &*q : nullptr, q_provenance, result);
  if (q && addressing_unknown) addressing_from_q(*q, q_provenance, modes);
  if (ask_addressing) addressing_from_kernel(bus, result.entries, modes);
  apply_addressing(modes, result);

  // GPUs the kernel shows that nvidia-smi did not list: fallen off, or bound
  // elsewhere. The module's own folder for a GPU says it holds it even where
  // sysfs shows no driver link (a recording without links, a container).
  int index = next_index(result.entries);
  for (const auto& gpu : bus) {
    if (gpu.address.empty()) continue;  // a device node: nvidia-smi's list is better
    bool listed = std::any_of(result.entries.begin(), result.entries.end(),
                              [&](const Entry& e) { return e.pci_bus_id == gpu.address; });
    if (listed) continue;
    Entry entry = bus_entry(host, gpu, index++);
    if (gpu.driver == "nvidia" || (gpu.driver.empty() && gpu.module_holds))
      entry.reason =
          Reason{ReasonCode::probe_failed,
                 "on the PCI bus with the nvidia driver, but nvidia-smi does not list it"};
    else if (gpu.driver.empty())
      entry.reason = Reason{ReasonCode::driver_not_found, "no driver bound to " + gpu.address};
    else
      entry.reason = Reason{ReasonCode::driver_not_found,
                            gpu.address + " is bound to " + gpu.driver + ", not nvidia"};
    result.entries.push_back(std::move(entry));
  }

  if (nvml) say_via_nvml(result);
  const auto visible_devices = host.env("CUDA_VISIBLE_DEVICES");
  if (visible_devices) apply_visible_devices(*visible_devices, result);
  settle_backend(result, visible_devices);
  return result;
}

}  // namespace hwaccel
