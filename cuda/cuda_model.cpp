#include "cuda/cuda_model.h"

#include <cstdio>
#include <cstring>

#include "src/host/live_host.h"
#include "src/host/snapshot_host.h"
#include "src/plan/catalogue.h"
#include "src/probe/cuda_visible.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel::cuda {
namespace {

// What neither the snapshot nor the catalogue records: each part's boost clock,
// memory clock (kHz, as CUDA reports them), memory bus width (bits) and L2 size,
// from NVIDIA's datasheets and architecture whitepapers. GB10's are from NVIDIA's
// DGX Spark page where given (256-bit LPDDR5X-8533) and assumed otherwise.
struct PartFacts {
  const char* match;  // a substring of the name NVIDIA's driver gives
  unsigned clock_khz, memory_clock_khz, bus_width, l2_bytes;
};
constexpr PartFacts kParts[] = {
    {"GH200", 1980000, 2619000, 5120, 50u << 20},
    {"H200", 1980000, 3201000, 6144, 50u << 20},
    {"H100 NVL", 1785000, 2619000, 6144, 50u << 20},
    {"H100 PCIe", 1755000, 1593000, 5120, 50u << 20},
    {"H100", 1980000, 2619000, 5120, 50u << 20},
    {"A100-SXM4-80GB", 1410000, 1593000, 5120, 40u << 20},
    {"A100 80GB PCIe", 1410000, 1512000, 5120, 40u << 20},
    {"A100", 1410000, 1215000, 5120, 40u << 20},
    {"B200", 1965000, 3996000, 8192, 126u << 20},
    {"GB10", 2418000, 4266000, 256, 24u << 20},
    {"RTX 4090", 2520000, 10501000, 384, 72u << 20},
    {"RTX 5090", 2407000, 14001000, 512, 96u << 20},
    {"L40S", 2520000, 9001000, 384, 96u << 20},
    {"L4", 2040000, 6251000, 192, 48u << 20},
    {"A10", 1695000, 6251000, 384, 6u << 20},
};

const PartFacts* part_facts(const std::string& name) {
  for (const auto& part : kParts)
    if (name.find(part.match) != std::string::npos) return &part;
  return nullptr;
}

bool parse_bus(const std::string& text, Device& d) {
  char tail = 0;
  return std::sscanf(text.c_str(), "%x:%x:%x.%x%c", &d.domain, &d.bus, &d.device, &d.function,
                     &tail) == 4;
}

// SMs of a MIG device: its GPU instance profile's, the compute instance's share
// of them ("1c.3g.40gb": one of three slices).
unsigned mig_multiprocessors(const nvml::Gpu& mig, const nvml::Gpu& whole) {
  if (!whole.mig_table) return 0;
  std::string_view name = mig.mig_profile;
  if (name.rfind("MIG ", 0) == 0) name.remove_prefix(4);
  unsigned share = 0;
  if (auto c = name.find("c."); c != std::string_view::npos && c > 0 && c < 3) {
    if (auto n = parse_u64(name.substr(0, c))) share = static_cast<unsigned>(*n);
    name.remove_prefix(c + 2);
  }
  const nvml::GiProfile* profile = nvml::gi_profile_by_name(*whole.mig_table, std::string(name));
  if (!profile) return 0;
  if (share == 0 || share > profile->slices) return profile->sms;
  return profile->sms * share / profile->slices;
}

CUresult init_result_of(nvmlReturn_t nvml) {
  switch (nvml) {
    case NVML_SUCCESS:
      return CUDA_SUCCESS;
    case NVML_ERROR_LIB_RM_VERSION_MISMATCH:  // the kernel module is another version
      return CUDA_ERROR_SYSTEM_DRIVER_MISMATCH;
    case NVML_ERROR_DRIVER_NOT_LOADED:  // no kernel module: no device to open
      return CUDA_ERROR_NO_DEVICE;
    default:  // permission, timeouts, a driver that answers nothing sensible
      return CUDA_ERROR_UNKNOWN;
  }
}

void lay_out_p2p(const nvml::Model& nvml, Model& model) {
  for (std::size_t a = 0; a < nvml.whole_gpus; ++a)
    for (std::size_t b = 0; b < nvml.whole_gpus; ++b) {
      if (a == b) continue;
      const auto &x = nvml.gpus[a], &y = nvml.gpus[b];
      bool nvlink = false, x_switch = false, y_switch = false;
      for (const auto& lane : x.nvlinks) {
        if (!lane.to_switch && lane.remote == b) nvlink = true;
        x_switch |= lane.to_switch;
      }
      for (const auto& lane : y.nvlinks) y_switch |= lane.to_switch;
      P2P p2p;
      if (nvlink || (x_switch && y_switch)) {
        p2p = {true, true, 0};
      } else if (auto path = nvml.pcie_paths.find({a, b}); path != nvml.pcie_paths.end()) {
        // Peer traffic crosses PCIe switches and one host bridge at most; GeForce
        // boards have it switched off by the driver.
        const std::string& kind = path->second;
        bool near = kind == "PIX" || kind == "PXB" || kind == "PHB" || kind == "NODE";
        bool geforce = x.name.find("GeForce") != std::string::npos;
        if (near && !geforce) p2p = {true, false, kind == "PIX" ? 1 : kind == "PXB" ? 2 : 3};
      }
      model.p2p[{a, b}] = p2p;
    }
}

}  // namespace

std::optional<CUuuid> uuid_bytes_of(const std::string& uuid) {
  std::string_view text = uuid;
  if (text.rfind("GPU-", 0) == 0 || text.rfind("MIG-", 0) == 0) text.remove_prefix(4);
  CUuuid out{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '-') continue;
    if (n == 32) return std::nullopt;
    auto digit = parse_hex(text.substr(i, 1));
    if (!digit || text[i] == 'x' || text[i] == 'X') return std::nullopt;
    out.bytes[n / 2] = static_cast<char>(out.bytes[n / 2] | (*digit << (n % 2 ? 0 : 4)));
    ++n;
  }
  if (n != 32) return std::nullopt;
  return out;
}

Model make_model(const nvml::Model& nvml, const std::optional<std::string>& visible_devices,
                 const std::optional<std::string>& device_order) {
  Model model;
  model.init_result = init_result_of(nvml.init_result);
  model.why = nvml.why;
  if (model.init_result != CUDA_SUCCESS) return model;
  model.driver_version = nvml.cuda_driver_version.value_or(0);
  const plan::Catalogue& catalogue = plan::builtin_catalogue();
  for (const auto& gpu : nvml.gpus) {
    Device d;
    const nvml::Gpu& whole = gpu.is_mig ? nvml.gpus[gpu.parent] : gpu;
    d.name = gpu.name;
    d.uuid = gpu.uuid;
    d.is_mig = gpu.is_mig;
    d.parent = gpu.parent;
    d.mig_enabled = !gpu.is_mig && gpu.mig_enabled && !gpu.mig_devices.empty();
    parse_bus(gpu.bus_id, d);
    d.pci_vendor = gpu.pci_vendor;
    d.pci_device = gpu.pci_device;
    d.pci_subsystem = gpu.pci_subsystem.value_or(0);
    d.total = gpu.memory_total.value_or(0);
    d.free = std::min(gpu.memory_free.value_or(0), d.total);
    d.unified = gpu.unified_memory;
    d.coherent = d.unified || (whole.addressing_mode && *whole.addressing_mode != 0);
    d.cc_major = gpu.cc_major.value_or(0);
    d.cc_minor = gpu.cc_minor.value_or(0);
    d.numa_node = gpu.numa_node;
    d.compute_mode = whole.q.compute_mode.value_or(0);
    d.datacenter = whole.name.find("GeForce") == std::string::npos &&
                   whole.name.find("RTX") == std::string::npos;
    if (auto bytes = uuid_bytes_of(gpu.uuid)) d.uuid_bytes = *bytes;
    if (auto bytes = uuid_bytes_of(whole.uuid)) d.gpu_uuid_bytes = *bytes;
    if (!gpu.is_mig) {
      Entry entry;
      entry.backend = "cuda";
      entry.type = DeviceType::gpu;
      entry.name = gpu.name;
      entry.pci_vendor_id = gpu.pci_vendor;
      entry.pci_device_id = gpu.pci_device;
      if (const plan::Sku* sku = catalogue.match(entry); sku && sku->compute_units > 0)
        d.multiprocessors = static_cast<unsigned>(sku->compute_units);
    } else {
      d.multiprocessors = mig_multiprocessors(gpu, whole);
    }
    if (const PartFacts* part = part_facts(whole.name)) {
      d.clock_khz = part->clock_khz;
      d.memory_clock_khz = part->memory_clock_khz;
      d.bus_width = part->bus_width;
      d.l2_bytes = part->l2_bytes;
    }
    model.devices.push_back(std::move(d));
  }
  // The shared rule (src/probe/cuda_visible.h) over the whole GPUs and their MIG
  // devices; its answer mapped back to positions in model.devices.
  std::vector<CudaGpu> gpus;
  std::vector<std::size_t> gpu_position;               // CudaGpu -> position
  std::vector<std::vector<std::size_t>> mig_position;  // CudaGpu, MIG -> position
  for (std::size_t i = 0; i < nvml.gpus.size(); ++i) {
    const nvml::Gpu& gpu = nvml.gpus[i];
    if (gpu.is_mig) continue;
    CudaGpu g;
    g.pci_bus_id = gpu.bus_id;
    g.uuid = gpu.uuid;
    g.speed = cuda_speed_key(gpu.cc_major.value_or(0), gpu.cc_minor.value_or(0));
    g.mig_enabled = gpu.mig_enabled;
    mig_position.emplace_back();
    for (std::size_t m : gpu.mig_devices) {
      const nvml::Gpu& mig = nvml.gpus[m];
      CudaMigDevice d;
      d.uuid = mig.uuid;
      if (mig.gpu_instance_id) d.gpu_instance_id = static_cast<int>(*mig.gpu_instance_id);
      if (mig.compute_instance_id)
        d.compute_instance_id = static_cast<int>(*mig.compute_instance_id);
      g.mig.push_back(d);
      mig_position.back().push_back(m);
    }
    gpus.push_back(std::move(g));
    gpu_position.push_back(i);
  }
  for (const CudaDeviceRef& ref : cuda_enumerate(gpus, visible_devices, device_order).devices)
    model.visible.push_back(ref.mig ? mig_position[ref.gpu][*ref.mig] : gpu_position[ref.gpu]);
  lay_out_p2p(nvml, model);
  // No device to open: cuInit itself fails, as the real driver's does.
  if (model.visible.empty()) {
    model.init_result = CUDA_ERROR_NO_DEVICE;
    model.why =
        model.devices.empty() ? "the driver lists no GPU" : "CUDA_VISIBLE_DEVICES names no device";
  }
  return model;
}

Model load_model() {
  LiveHost live;
  std::string path;
  for (const char* name : {"HWSIM_CUDA_SNAPSHOT", "HWSIM_NVML_SNAPSHOT"})
    if (auto given = live.env(name); given && !given->empty() && path.empty()) path = *given;
  if (path.empty()) {
    auto root = live.env("HWSIM_ROOT");
    path = (root && !root->empty() ? *root : std::string()) + "/.hwsim/snapshot.yaml";
  }
  auto loaded = load_snapshot_file(path);
  if (!loaded.snapshot) {
    Model model;
    model.init_result = CUDA_ERROR_NO_DEVICE;
    model.why = "no simulated host: " + (loaded.error ? loaded.error->to_string() : path);
    return model;
  }
  SnapshotHost host(std::move(*loaded.snapshot));
  nvml::Model nvml = nvml::build_model(host);
  return make_model(nvml, live.env("CUDA_VISIBLE_DEVICES"), live.env("CUDA_DEVICE_ORDER"));
}

}  // namespace hwaccel::cuda
