#include "nvml/nvml_model.h"

#include <algorithm>

#include "src/host/live_host.h"
#include "src/host/snapshot_host.h"
#include "src/probe/text_util.h"
#include "src/registry/detection.h"

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

// /proc/driver/nvidia/gpus/BDF/information: "Device Minor: 0".
std::optional<unsigned> read_minor(Host& host, const std::string& bus_id) {
  auto text = host.read("/proc/driver/nvidia/gpus/" + bus_id + "/information");
  if (!text) return std::nullopt;
  for (auto line : split_lines(text.value())) {
    auto kv = split_key_value(line);
    if (!kv || kv->key != "Device Minor") continue;
    auto value = parse_u64(kv->value);
    if (value && *value < 256) return static_cast<unsigned>(*value);
  }
  return std::nullopt;
}

void add_nvlinks(const std::vector<Link>& links, const std::map<std::string, std::size_t>& by_id,
                 Model& model) {
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
      out.assign(std::min<std::size_t>(widest, NVML_NVLINK_MAX_LINKS), NvLinkLane{true, 0});
      continue;
    }
    for (const auto& [peer, lanes] : list)
      for (int i = 0; i < lanes; ++i) out.push_back(NvLinkLane{false, peer});
  }
}

}  // namespace

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
    if (!gpu.bus_id.empty()) {
      const std::string sys = "/sys/bus/pci/devices/" + gpu.bus_id + "/";
      auto vendor = read_hex_file(host, sys + "subsystem_vendor");
      auto device = read_hex_file(host, sys + "subsystem_device");
      if (vendor && device) gpu.pci_subsystem = *device << 16 | *vendor;
      gpu.minor_number = read_minor(host, gpu.bus_id);
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
  add_nvlinks(detection.links, by_id, model);
  model.cuda_driver_version = cuda_version_of_driver(model.driver_version);
  return model;
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
  SnapshotHost host(std::move(*loaded.snapshot));
  return build_model(host);
}

}  // namespace hwaccel::nvml
