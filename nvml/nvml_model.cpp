#include "nvml/nvml_model.h"

#include <algorithm>

#include "src/host/live_host.h"
#include "src/host/snapshot_host.h"
#include "src/probe/cuda_nvml_doc.h"
#include "src/probe/cuda_probe.h"
#include "src/probe/nvidia_smi_csv.h"
#include "src/probe/pci_bus.h"
#include "src/registry/detection.h"
#include "src/snapshot/recorded_time.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel::nvml {
namespace {

constexpr unsigned kMaxCpus = 1u << 16;  // a hostile affinity list stops here

// "0-55,112-167" -> the CPU numbers; empty on anything else.
std::vector<unsigned> parse_cpu_list(std::string_view text) {
  std::vector<unsigned> cpus;
  for (auto part : split(text, ',')) {
    part = trim(part);
    if (part.empty()) continue;
    auto dash = part.find('-');
    auto first = parse_u64(part.substr(0, dash));
    auto last = dash == std::string_view::npos ? first : parse_u64(part.substr(dash + 1));
    if (!first || !last || *last < *first || *last >= kMaxCpus) return {};
    for (auto cpu = *first; cpu <= *last; ++cpu) cpus.push_back(static_cast<unsigned>(cpu));
  }
  return cpus;
}

// "sm_90" -> 9, 0; "sm_121" -> 12, 1.
void read_compute_class(const std::string& text, Gpu& gpu) {
  if (text.rfind("sm_", 0) != 0 || text.size() < 5) return;
  auto digits = parse_u64(text.substr(3));
  if (!digits) return;
  gpu.cc_major = static_cast<int>(*digits / 10);
  gpu.cc_minor = static_cast<int>(*digits % 10);
}

// NVIDIA's MIG-capable data-centre GPUs (A30 and up); a guess by name where the
// snapshot says nothing about MIG.
bool mig_capable_name(const std::string& name) {
  for (const char* family :
       {"A100", "A30", "A800", "H100", "H200", "H800", "H20", "GH200", "B100", "B200", "B300"})
    if (name.find(family) != std::string::npos) return true;
  return false;
}

nvmlReturn_t init_result_of(const BackendStatus& cuda, std::string& why) {
  if (cuda.ready || !cuda.reason) return NVML_SUCCESS;
  why = std::string(to_string(cuda.reason->code)) + ": " + cuda.reason->detail;
  switch (cuda.reason->code) {
    case ReasonCode::no_device:    // the driver answers and lists no GPU
    case ReasonCode::not_visible:  // CUDA_VISIBLE_DEVICES does not hide GPUs from NVML
      return NVML_SUCCESS;
    case ReasonCode::permission_denied:
      return NVML_ERROR_NO_PERMISSION;
    case ReasonCode::timeout:
      return NVML_ERROR_TIMEOUT;
    case ReasonCode::probe_failed:
      if (contains_ignoring_case(cuda.reason->detail, "version mismatch"))
        return NVML_ERROR_LIB_RM_VERSION_MISMATCH;
      if (contains_ignoring_case(cuda.reason->detail, "Insufficient Permissions"))
        return NVML_ERROR_NO_PERMISSION;
      return NVML_ERROR_UNKNOWN;
    default:  // no driver, no nvidia-smi, no GPU: the kernel module is not there
      return NVML_ERROR_DRIVER_NOT_LOADED;
  }
}

std::optional<std::uint32_t> read_hex_file(Host& host, const std::string& path) {
  auto text = host.read(path);
  if (!text) return std::nullopt;
  auto value = parse_hex(trim(text.value()));
  if (!value || *value > 0xffff) return std::nullopt;
  return static_cast<std::uint32_t>(*value);
}

// /proc/driver/nvidia/gpus/BDF/information: "Device Minor: 0", "IRQ: 10".
void read_information(Host& host, Gpu& gpu) {
  auto text = host.read("/proc/driver/nvidia/gpus/" + gpu.bus_id + "/information");
  if (!text) return;
  for (auto line : split_lines(text.value())) {
    auto kv = split_key_value(line);
    if (!kv) continue;
    auto value = parse_u64(trim(kv->value));
    if (kv->key == "Device Minor" && value && *value < 256) gpu.minor_number = *value;
    if (kv->key == "IRQ" && value && *value < (1u << 24)) gpu.irq = *value;
  }
}

// What a recorded `nvidia-smi -q` and the addressing-mode query add to the GPUs.
void add_recorded_facts(Host& host, Model& model) {
  std::map<std::string, Gpu*> by_bus;
  for (std::size_t i = 0; i < model.whole_gpus; ++i) by_bus[model.gpus[i].bus_id] = &model.gpus[i];
  ToolRun q = host.run(cuda_q_argv());
  if (q.ok()) {
    QReport report = parse_q_facts(q.out);
    for (auto& [bus, facts] : report.by_bus)
      if (auto it = by_bus.find(bus); it != by_bus.end()) it->second->q = facts;
    // "13.1" -> 13010: the driver's own word beats the branch table.
    auto dot = report.cuda_version.find('.');
    auto major = parse_u64(report.cuda_version.substr(0, dot));
    auto minor =
        dot == std::string::npos ? std::nullopt : parse_u64(report.cuda_version.substr(dot + 1));
    if (major && minor && *major < 100 && *minor < 100)
      model.cuda_driver_version = static_cast<int>(*major * 1000 + *minor * 10);
  }
  for (auto& [bus, gpu] : by_bus) gpu->addressing_mode = addressing_mode_of(gpu->q.addressing_mode);
  // Reserved memory: -q's "Reserved" is exact; else what the recorded query's total
  // leaves beside used and free (drivers that count it apart from used; on older
  // ones used includes it and nothing is left).
  for (auto& [bus, gpu] : by_bus)
    if (gpu->q.fb_reserved)
      gpu->memory_reserved = std::min(*gpu->q.fb_reserved, gpu->memory_total.value_or(0));
  ToolRun rows = host.run(cuda_query_argv(cuda_query_fields()));
  if (rows.ok())
    for (const auto& row : parse_nvidia_smi_gpu_query(rows.out).gpus) {
      auto it = by_bus.find(row.pci_bus_id);
      if (it == by_bus.end() || it->second->memory_reserved) continue;
      if (!row.memory_total_bytes || !row.memory_used_bytes || !row.memory_free_bytes) continue;
      const std::uint64_t total = *row.memory_total_bytes,
                          taken = *row.memory_used_bytes + *row.memory_free_bytes;
      it->second->memory_reserved = total > taken ? total - taken : 0;
    }
  ToolRun query = host.run(cuda_addressing_mode_argv());
  if (!query.ok()) return;
  NvidiaSmiTable table = parse_nvidia_smi_csv(query.out);
  auto bus_column = table.column("pci.bus_id"), mode_column = table.column("addressing_mode");
  if (!bus_column || !mode_column) return;
  for (const auto& row : table.rows)
    if (auto it = by_bus.find(normalise_pci_bus_id(row[*bus_column])); it != by_bus.end())
      if (auto mode = addressing_mode_of(row[*mode_column])) it->second->addressing_mode = mode;
}

}  // namespace

std::optional<unsigned> addressing_mode_of(std::string_view text) {
  if (text == "None") return NVML_DEVICE_ADDRESSING_MODE_NONE;
  if (text == "HMM") return NVML_DEVICE_ADDRESSING_MODE_HMM;
  if (text == "ATS") return NVML_DEVICE_ADDRESSING_MODE_ATS;
  return std::nullopt;
}

void lay_out_nvlinks(const std::vector<Link>& links,
                     const std::map<std::string, std::size_t>& by_id, Model& model) {
  std::map<std::size_t, std::vector<std::pair<std::size_t, int>>> peers;  // gpu -> (peer, lanes)
  for (const auto& link : links) {
    auto a = by_id.find(link.a), b = by_id.find(link.b);
    if (a == by_id.end() || b == by_id.end() || a->second == b->second) continue;
    if (link.kind == "pcie" && !link.path.empty()) {
      model.pcie_paths[{a->second, b->second}] = link.path;
      model.pcie_paths[{b->second, a->second}] = link.path;
    }
    if (link.kind != "nvlink" || link.lanes <= 0) continue;
    peers[a->second].push_back({b->second, link.lanes});
    peers[b->second].push_back({a->second, link.lanes});
  }
  for (auto& [gpu, list] : peers) {
    std::sort(list.begin(), list.end());
    int total = 0;
    for (const auto& [peer, lanes] : list) total += lanes;
    auto& out = model.gpus[gpu].nvlinks;
    if (total > static_cast<int>(NVML_NVLINK_MAX_LINKS)) {
      // More lanes than a GPU has links: every pair is joined through NVSwitches
      // (`topo -m` prints NV18 for each pair); each link ends at a switch.
      int widest = 0;
      for (const auto& [peer, lanes] : list) widest = std::max(widest, lanes);
      const std::size_t links = std::min<std::size_t>(widest, NVML_NVLINK_MAX_LINKS);
      // With the switches on the bus, a GPU's links are spread over them in bus
      // order, as evenly as the count allows (HGX H100: 18 links over 4 switches).
      const std::size_t switches = model.switches.size();
      for (std::size_t link = 0; link < links; ++link)
        out.push_back(NvLinkLane{true, switches ? link * switches / links : kNoSwitch});
      continue;
    }
    for (const auto& [peer, lanes] : list)
      for (int i = 0; i < lanes; ++i) out.push_back(NvLinkLane{false, peer});
  }
}

void lay_out_mig_instances(Model& model) {
  std::map<std::pair<std::size_t, unsigned>, std::size_t> by_gi;  // (gpu, GI id) -> position
  for (std::size_t i = model.whole_gpus; i < model.gpus.size(); ++i) {
    const Gpu& mig = model.gpus[i];
    const Gpu& whole = model.gpus[mig.parent];
    if (!mig.is_mig || !whole.mig_table || !mig.gpu_instance_id) continue;
    const GiProfile* profile = gi_profile_by_name(*whole.mig_table, mig.mig_profile);
    if (!profile) continue;
    auto [at, fresh] =
        by_gi.emplace(std::pair{mig.parent, *mig.gpu_instance_id}, model.gpu_instances.size());
    if (fresh) {
      GpuInstance gi;
      gi.gpu = mig.parent;
      gi.id = *mig.gpu_instance_id;
      gi.profile = profile;
      gi.placement = placement_of_instance(*whole.mig_table, *profile, gi.id);
      model.gpu_instances.push_back(gi);
    }
    GpuInstance& gi = model.gpu_instances[at->second];
    // "1c.3g.40gb": one of the GPU instance's slices; "3g.40gb": all of them.
    unsigned slices = gi.profile->slices;
    std::string_view name = mig.mig_profile;
    if (name.rfind("MIG ", 0) == 0) name.remove_prefix(4);
    if (auto c = name.find("c."); c != std::string_view::npos && c > 0 && c < 3)
      if (auto n = parse_u64(name.substr(0, c)); n && *n >= 1 && *n <= gi.profile->slices)
        slices = static_cast<unsigned>(*n);
    auto index = ci_profile_index_of(slices);
    if (!index || gi.compute.size() >= gi.profile->slices) continue;
    ComputeInstance ci;
    ci.gpu_instance = at->second;
    ci.device = i;
    ci.id = mig.compute_instance_id.value_or(0);
    ci.profile_index = *index;
    unsigned start = 0;
    for (std::size_t c : gi.compute) start += model.compute_instances[c].placement.size;
    ci.placement = {start, slices};
    gi.compute.push_back(model.compute_instances.size());
    model.compute_instances.push_back(ci);
  }
}

std::optional<int> cuda_version_of_driver(const std::string& driver_version) {
  static const std::map<int, int> branches = {
      {450, 11000}, {455, 11010}, {460, 11020}, {465, 11030}, {470, 11040}, {495, 11050},
      {510, 11060}, {515, 11070}, {520, 11080}, {525, 12000}, {530, 12010}, {535, 12020},
      {545, 12030}, {550, 12040}, {555, 12050}, {560, 12060}, {565, 12070}, {570, 12080},
      {575, 12090}, {580, 13000}, {590, 13010}};
  auto major = parse_u64(driver_version.substr(0, driver_version.find('.')));
  if (!major) return std::nullopt;
  auto it = branches.upper_bound(static_cast<int>(*major));
  if (it == branches.begin()) return std::nullopt;
  return std::prev(it)->second;
}

std::string nvml_version_of(const Model& model) {
  if (!model.cuda_driver_version || model.driver_version.empty()) return model.driver_version;
  return std::to_string(*model.cuda_driver_version / 1000) + "." + model.driver_version;
}

unsigned architecture_of(const Gpu& gpu) {
  if (!gpu.cc_major) return NVML_DEVICE_ARCH_UNKNOWN;
  int major = *gpu.cc_major, minor = gpu.cc_minor.value_or(0);
  if (major == 3) return NVML_DEVICE_ARCH_KEPLER;
  if (major == 5) return NVML_DEVICE_ARCH_MAXWELL;
  if (major == 6) return NVML_DEVICE_ARCH_PASCAL;
  if (major == 7) return minor >= 5 ? NVML_DEVICE_ARCH_TURING : NVML_DEVICE_ARCH_VOLTA;
  if (major == 8) return minor >= 9 ? NVML_DEVICE_ARCH_ADA : NVML_DEVICE_ARCH_AMPERE;
  if (major == 9) return NVML_DEVICE_ARCH_HOPPER;
  if (major == 10 || major == 12) return NVML_DEVICE_ARCH_BLACKWELL;
  return NVML_DEVICE_ARCH_UNKNOWN;
}

int brand_of(const Gpu& gpu) {
  const std::string& n = gpu.name;
  if (n.find("GeForce") != std::string::npos) return NVML_BRAND_GEFORCE;
  if (n.find("TITAN") != std::string::npos) return NVML_BRAND_TITAN;
  if (n.find("Quadro") != std::string::npos) return NVML_BRAND_QUADRO;
  if (n.find("RTX") != std::string::npos) return NVML_BRAND_NVIDIA_RTX;
  if (n.find("Tesla") != std::string::npos) return NVML_BRAND_TESLA;
  return n.empty() ? NVML_BRAND_UNKNOWN : NVML_BRAND_NVIDIA;
}

Model build_model(Host& host) {
  Model model;
  DetectOptions options;
  options.only = {"cuda"};
  Detection detection = detect(host, options);
  for (const auto& backend : detection.backends)
    if (backend.name == "cuda") model.init_result = init_result_of(backend, model.why);
  if (model.init_result != NVML_SUCCESS) return model;

  std::map<int, std::size_t> by_index;       // cuda entry index -> position
  std::map<std::string, std::size_t> by_id;  // physical_id -> position
  for (const auto& e : detection.entries) {
    if (e.backend != "cuda" || e.partition) continue;
    // A GPU the driver does not drive is not one NVML enumerates.
    if (e.status != EntryStatus::ready && !(e.reason && e.reason->code == ReasonCode::not_visible))
      continue;
    Gpu gpu;
    gpu.index = static_cast<unsigned>(model.whole_gpus++);
    gpu.name = e.name;
    gpu.uuid = e.uuid;
    gpu.bus_id = e.pci_bus_id;
    gpu.driver_version = e.driver_version;
    gpu.pci_vendor = e.pci_vendor_id.value_or(0x10de);
    gpu.pci_device = e.pci_device_id.value_or(0);
    gpu.memory_total = e.memory.total_bytes;
    gpu.memory_free = e.memory.free_bytes;
    gpu.unified_memory = e.memory.kind == MemoryKind::unified;
    read_compute_class(e.compute_class, gpu);
    gpu.numa_node = e.numa_node;
    gpu.cpus = parse_cpu_list(e.cpu_affinity);
    if (e.pcie) {
      gpu.pcie_gen_current = e.pcie->current.generation;
      gpu.pcie_gen_max = e.pcie->max.generation;
      gpu.pcie_width_current = e.pcie->current.width;
      gpu.pcie_width_max = e.pcie->max.width;
    }
    if (!gpu.bus_id.empty()) {
      const std::string sys = "/sys/bus/pci/devices/" + gpu.bus_id + "/";
      auto vendor = read_hex_file(host, sys + "subsystem_vendor");
      auto device = read_hex_file(host, sys + "subsystem_device");
      if (vendor && device) gpu.pci_subsystem = *device << 16 | *vendor;
      read_information(host, gpu);
      if (auto text = host.read(sys + "class"))
        if (auto value = parse_hex(trim(text.value())); value && *value <= 0xffffff)
          gpu.pci_class = static_cast<unsigned>(*value >> 8);
    }
    gpu.mig_capable = mig_capable_name(e.name) || e.partitioned;
    gpu.mig_enabled = e.partitioned;
    if (model.driver_version.empty()) model.driver_version = e.driver_version;
    by_index[e.index] = model.gpus.size();
    by_id[e.physical_id] = model.gpus.size();
    model.gpus.push_back(std::move(gpu));
  }
  for (const auto& e : detection.entries) {
    if (e.backend != "cuda" || !e.partition) continue;
    auto parent = by_index.find(e.partition->parent_index);
    if (parent == by_index.end()) continue;
    Gpu mig;
    mig.is_mig = true;
    mig.parent = parent->second;
    const Gpu& whole = model.gpus[parent->second];
    mig.index = static_cast<unsigned>(whole.mig_devices.size());
    mig.name = e.name;
    mig.uuid = e.uuid;
    mig.bus_id = whole.bus_id;
    mig.driver_version = whole.driver_version;
    mig.pci_vendor = whole.pci_vendor;
    mig.pci_device = whole.pci_device;
    mig.pci_subsystem = whole.pci_subsystem;
    mig.memory_total = e.memory.total_bytes;
    mig.memory_free = e.memory.free_bytes;
    mig.cc_major = whole.cc_major;
    mig.cc_minor = whole.cc_minor;
    mig.numa_node = whole.numa_node;
    mig.cpus = whole.cpus;
    mig.minor_number = whole.minor_number;
    if (e.partition->gpu_instance_id && *e.partition->gpu_instance_id >= 0)
      mig.gpu_instance_id = static_cast<unsigned>(*e.partition->gpu_instance_id);
    if (e.partition->compute_instance_id && *e.partition->compute_instance_id >= 0)
      mig.compute_instance_id = static_cast<unsigned>(*e.partition->compute_instance_id);
    mig.mig_profile = e.partition->profile;
    model.gpus[parent->second].mig_devices.push_back(model.gpus.size());
    model.gpus[parent->second].mig_enabled = true;
    model.gpus[parent->second].mig_capable = true;
    model.gpus.push_back(std::move(mig));
  }
  for (auto& d : pci_devices_of_vendor(host, 0x10de))
    if (d.base_class() == 0x06 && d.sub_class() == 0x80)
      model.switches.push_back(NvSwitch{d.address, d.device});
  lay_out_nvlinks(detection.links, by_id, model);
  model.cuda_driver_version = cuda_version_of_driver(model.driver_version);
  add_recorded_facts(host, model);
  for (auto& gpu : model.gpus) {
    const Gpu& whole = gpu.is_mig ? model.gpus[gpu.parent] : gpu;
    if (!gpu.minor_number) gpu.minor_number = whole.q.minor_number;
    if (gpu.is_mig) gpu.addressing_mode = whole.addressing_mode;
    if (!gpu.is_mig && gpu.mig_capable) gpu.mig_table = mig_table_for(gpu.name, gpu.memory_total);
  }
  lay_out_mig_instances(model);
  if (auto* recorded = dynamic_cast<SnapshotHost*>(&host))
    add_recorded_monitoring(recorded->snapshot(), model);
  return model;
}

void add_recorded_monitoring(const Snapshot& snapshot, Model& model) {
  for (std::size_t i = 0; i < model.whole_gpus; ++i) model.gpus[i].cells = model.gpus[i].q.cells;
  for (const auto& [argv, tool] : snapshot.tools) {
    if (argv.empty() || argv[0].substr(argv[0].rfind('/') + 1) != "nvidia-smi" ||
        tool.run.outcome != ToolOutcome::exited || tool.run.exit_code != 0)
      continue;
    bool query = false, apps = false, header = true;
    for (const auto& a : argv) {
      query = query || a.rfind("--query-gpu=", 0) == 0;
      apps = apps || a.rfind("--query-compute-apps=", 0) == 0;
      header = header && a.find("noheader") == std::string::npos;
    }
    if (apps && header)
      for (auto& [bus, list] : recorded_processes(tool.run.out))
        for (std::size_t i = 0; i < model.whole_gpus; ++i)
          if (model.gpus[i].bus_id == bus) model.gpus[i].processes = list;
    if (!query || !header) continue;
    for (auto& [key, cells] : query_cells(tool.run.out))
      for (std::size_t i = 0; i < model.whole_gpus; ++i) {
        Gpu& gpu = model.gpus[i];
        if (key != gpu.bus_id && key != "#" + std::to_string(gpu.index)) continue;
        for (const auto& [field, cell] : cells) gpu.cells[field] = cell;
      }
  }
  // What a recorded hwaccel-nvml asked NVML itself (its "monitor" cells, in
  // --query-gpu's words, and its processes): where nvidia-smi recorded nothing.
  for (const auto& [argv, tool] : snapshot.tools) {
    if (argv.empty() || argv[0].substr(argv[0].rfind('/') + 1) != "hwaccel-nvml" ||
        tool.run.outcome != ToolOutcome::exited || tool.run.exit_code != 0)
      continue;
    const NvmlDocument doc = parse_nvml_document(tool.run.out);
    for (const auto& d : doc.devices)
      for (std::size_t i = 0; i < model.whole_gpus; ++i) {
        Gpu& gpu = model.gpus[i];
        if (d.pci_bus_id.empty() || d.pci_bus_id != gpu.bus_id) continue;
        for (const auto& [field, cell] : d.monitor) gpu.cells.emplace(field, cell);
        if (gpu.processes.empty())
          for (const auto& p : d.processes) gpu.processes.push_back({p.pid, p.name, p.used_memory});
      }
  }
  if (auto seconds = parse_recorded_time(recorded_time_of(snapshot)))
    model.recorded_us = static_cast<std::uint64_t>(*seconds) * 1000000u;
}

std::int64_t init_latency_ms(const Snapshot& snapshot) {
  std::int64_t quickest = 0;
  for (const auto& [argv, tool] : snapshot.tools) {
    if (argv.empty() || !tool.has_ms || tool.run.ms <= 0 || tool.run.ms > 60000) continue;
    if (argv == std::vector<std::string>{"hwaccel-nvml"}) return tool.run.ms;
    if (argv[0] == "nvidia-smi" && tool.run.ok() && (quickest == 0 || tool.run.ms < quickest))
      quickest = tool.run.ms;
  }
  return quickest;
}

Model load_model() {
  LiveHost live;
  std::string path;
  if (auto given = live.env("HWSIM_NVML_SNAPSHOT"); given && !given->empty())
    path = *given;
  else if (auto root = live.env("HWSIM_ROOT"); root && !root->empty())
    path = *root + "/.hwsim/snapshot.yaml";
  else
    path = "/.hwsim/snapshot.yaml";
  auto loaded = load_snapshot_file(path);
  if (!loaded.snapshot) {
    Model model;
    model.init_result = NVML_ERROR_DRIVER_NOT_LOADED;
    model.why = "no simulated host: " + (loaded.error ? loaded.error->to_string() : path);
    return model;
  }
  const std::int64_t init_ms = init_latency_ms(*loaded.snapshot);
  SnapshotHost host(std::move(*loaded.snapshot));
  Model model = build_model(host);
  model.init_ms = init_ms;
  return model;
}

}  // namespace hwaccel::nvml
