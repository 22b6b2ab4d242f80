#include "src/probe/nvidia_kernel_gpus.h"

#include <algorithm>

#include "src/probe/nvidia_smi_csv.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::uint16_t kNvidia = 0x10de;
constexpr std::string_view kDrm = "/sys/class/drm";
constexpr std::size_t kMaxDeviceNodes = 64;

KernelGpu& at_address(std::vector<KernelGpu>& gpus, const std::string& address) {
  for (auto& gpu : gpus)
    if (gpu.address == address) return gpu;
  gpus.push_back(KernelGpu{});
  gpus.back().address = address;
  return gpus.back();
}

void add_provenance(KernelGpu& gpu, std::string place) {
  if (std::find(gpu.provenance.begin(), gpu.provenance.end(), place) == gpu.provenance.end())
    gpu.provenance.push_back(std::move(place));
}

void take_pci(KernelGpu& gpu, const PciDevice& pci) {
  if (!gpu.device_id && pci.device != 0) gpu.device_id = pci.device;
  if (gpu.driver.empty()) gpu.driver = pci.driver;
  if (!gpu.numa_node) gpu.numa_node = pci.numa_node;
  add_provenance(gpu, "file:" + std::string(kPciDevicesDir) + "/" + pci.address);
}

std::string basename_of(std::string_view path) {
  auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// "card0", "card12": not connectors ("card0-DP-1") nor render nodes.
bool is_card(std::string_view name) {
  if (name.rfind("card", 0) != 0 || name.size() == 4) return false;
  return std::all_of(name.begin() + 4, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A card's vendor and device: the function's files, else uevent's PCI_ID.
std::optional<std::pair<std::uint16_t, std::uint16_t>> card_ids(Host& host,
                                                                const std::string& dir) {
  auto vendor = host.read(dir + "/vendor");
  auto device = host.read(dir + "/device");
  if (vendor && device) {
    auto v = parse_sysfs_hex(*vendor);
    auto d = parse_sysfs_hex(*device);
    if (v && d && *v <= 0xffff && *d <= 0xffff)
      return std::pair{std::uint16_t(*v), std::uint16_t(*d)};
  }
  auto uevent = host.read(dir + "/uevent");
  if (!uevent) return std::nullopt;
  for (auto line : split_lines(*uevent)) {
    if (line.rfind("PCI_ID=", 0) != 0) continue;
    auto ids = split(line.substr(7), ':');
    if (ids.size() != 2) return std::nullopt;
    auto v = parse_hex(ids[0]);
    auto d = parse_hex(ids[1]);
    if (v && d && *v <= 0xffff && *d <= 0xffff)
      return std::pair{std::uint16_t(*v), std::uint16_t(*d)};
  }
  return std::nullopt;
}

void add_drm_cards(Host& host, std::vector<KernelGpu>& gpus) {
  auto names = host.list(kDrm);
  if (!names) return;
  for (const auto& name : *names) {
    if (!is_card(name)) continue;
    const std::string dir = std::string(kDrm) + "/" + name + "/device";
    auto target = host.readlink(dir);
    if (!target) continue;
    const std::string address = normalise_pci_bus_id(basename_of(*target));
    if (address.empty()) continue;  // a platform device (simpledrm), not a PCI function
    auto ids = card_ids(host, dir);
    if (!ids || ids->first != kNvidia) continue;
    KernelGpu& gpu = at_address(gpus, address);
    if (!gpu.device_id) gpu.device_id = ids->second;
    // A card means a DRM driver holds the function: nvidia(-drm) or nouveau.
    if (gpu.driver.empty()) {
      if (auto link = host.readlink(dir + "/driver"))
        gpu.driver = basename_of(*link);
      else if (auto uevent = host.read(dir + "/uevent"))
        for (auto line : split_lines(*uevent))
          if (line.rfind("DRIVER=", 0) == 0) gpu.driver = printable_line(line.substr(7), 40);
    }
    add_provenance(gpu, "file:" + std::string(kDrm) + "/" + name);
  }
}

// /dev/nvidia0, /dev/nvidia1, ...: not nvidiactl, nvidia-uvm, nvidia-modeset.
std::vector<std::string> device_nodes(Host& host) {
  std::vector<std::string> nodes;
  auto names = host.list("/dev");
  if (!names) return nodes;
  for (const auto& name : *names) {
    if (name.size() <= 6 || name.rfind("nvidia", 0) != 0) continue;
    if (!std::all_of(name.begin() + 6, name.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    if (nodes.size() == kMaxDeviceNodes) break;
    nodes.push_back("/dev/" + name);
  }
  std::sort(nodes.begin(), nodes.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;  // nvidia2 before nvidia10
  });
  return nodes;
}

}  // namespace

NvidiaNumaStatus parse_nvidia_numa_status(std::string_view text) {
  NvidiaNumaStatus out;
  for (auto line : split_lines(text)) {
    auto kv = split_key_value(line);
    if (!kv) continue;
    if (kv->key == "Node") {
      auto value = trim(kv->value);
      if (!value.empty() && value.front() != '-')
        if (auto node = parse_u64(value); node && *node <= 4096) out.node = int(*node);
    } else if (kv->key == "Status") {
      out.status = printable_line(kv->value, 40);
    }
  }
  return out;
}

std::vector<KernelGpu> nvidia_kernel_gpus(Host& host, bool read_information) {
  std::vector<KernelGpu> gpus;
  for (const auto& pci : pci_devices_of_vendor(host, kNvidia))
    if (pci.is_display()) take_pci(at_address(gpus, pci.address), pci);

  bool module_unmatched = false;
  if (auto names = host.list(kNvidiaProcGpus)) {
    for (const auto& name : *names) {
      const std::string address = normalise_pci_bus_id(name);
      if (address.empty()) continue;
      const std::string dir = std::string(kNvidiaProcGpus) + "/" + name;
      const bool known = std::any_of(gpus.begin(), gpus.end(),
                                     [&](const KernelGpu& g) { return g.address == address; });
      module_unmatched |= !known;
      KernelGpu& gpu = at_address(gpus, address);
      gpu.module_holds = true;
      if (read_information)
        if (auto text = host.read(dir + "/information")) {
          gpu.info = parse_nvidia_gpu_information(*text);
          add_provenance(gpu, "file:" + dir + "/information");
        }
      if (auto text = host.read(dir + "/numa_status")) {
        gpu.numa_status = parse_nvidia_numa_status(*text);
        add_provenance(gpu, "file:" + dir + "/numa_status");
      }
      if (!gpu.info && !gpu.numa_status) add_provenance(gpu, "file:" + dir);
    }
  }
  // A GPU the module holds but the vendor scan missed: its folder may lack the
  // vendor and device files; the class (and uevent) still say what it is.
  if (module_unmatched)
    for (const auto& pci : pci_functions_without_vendor(host)) {
      if (!pci.is_display() || (pci.vendor != 0 && pci.vendor != kNvidia)) continue;
      auto at = std::find_if(gpus.begin(), gpus.end(),
                             [&](const KernelGpu& g) { return g.address == pci.address; });
      if (at != gpus.end()) take_pci(*at, pci);
    }
  add_drm_cards(host, gpus);
  std::sort(gpus.begin(), gpus.end(),
            [](const KernelGpu& a, const KernelGpu& b) { return a.address < b.address; });

  // Device nodes carry no bus id, and nvidia-modprobe's nodes outlive an
  // unloaded module: they name GPUs only where nothing else does.
  if (gpus.empty())
    for (const auto& node : device_nodes(host)) {
      KernelGpu gpu;
      gpu.device_node = node;
      gpu.module_holds = true;
      gpu.provenance.push_back("file:" + node);
      gpus.push_back(std::move(gpu));
    }
  return gpus;
}

}  // namespace hwaccel
