#include "src/probe/rocm_probe.h"

#include <algorithm>
#include <optional>
#include <set>

#include "src/catalog/amd_pci_ids.h"
#include "src/probe/amdgpu_kfd_topology.h"
#include "src/probe/amdgpu_sysfs.h"
#include "src/probe/host_meminfo.h"
#include "src/probe/pci_bus.h"
#include "src/probe/rocm_visibility.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::string_view kDrmDir = "/sys/class/drm";
constexpr std::string_view kKfdNodesDir = "/sys/class/kfd/kfd/topology/nodes";
constexpr std::string_view kMeminfo = "/proc/meminfo";
constexpr std::uint16_t kAmdVendor = 0x1002;
constexpr std::string_view kApi = "sysfs";

Warning rocm_warning(std::string message) {
  return Warning{"rocm", std::move(message)};
}

std::string cannot_read(std::string_view path, const Error& error) {
  return "cannot read " + std::string(path) + " (" + error.errno_name() + ")";
}

std::string hex4(std::uint16_t value) {
  constexpr char kHex[] = "0123456789abcdef";
  std::string s = "0x";
  for (int shift = 12; shift >= 0; shift -= 4) s += kHex[(value >> shift) & 0xf];
  return s;
}

struct KfdNode {
  std::string name;  // the folder: "1"
  KfdNodeProperties props;
};

// The KFD topology, read once, only when an amdgpu card is there.
struct KfdTopology {
  bool present = false;     // the nodes folder could be listed
  std::string missing_why;  // errno name when it could not
  int missing_errno = 0;
  std::vector<KfdNode> gpus;
  // Node files that exist but could not be read (EACCES, ELOOP): a GPU's node
  // may be among them, so "KFD lists no node for it" would be a guess.
  std::vector<std::pair<std::string, Error>> unreadable;
};

bool denied(int code) {
  return code == EACCES || code == EPERM;
}

std::uint64_t node_number(const std::string& name) {
  return parse_u64(name).value_or(~0ull);
}

KfdTopology read_kfd_topology(Host& host, std::vector<Warning>& warnings) {
  KfdTopology topology;
  auto names = host.list(kKfdNodesDir);
  if (!names) {
    topology.missing_why = names.error().errno_name();
    topology.missing_errno = names.error().code;
    if (names.error().code != ENOENT)
      warnings.push_back(rocm_warning("cannot list " + std::string(kKfdNodesDir) + " (" +
                                      topology.missing_why + "); gfx targets unknown"));
    return topology;
  }
  topology.present = true;
  std::vector<std::string> sorted = *names;
  std::sort(sorted.begin(), sorted.end(), [](const std::string& a, const std::string& b) {
    return std::make_pair(node_number(a), a) < std::make_pair(node_number(b), b);
  });
  for (const auto& name : sorted) {
    const std::string path = std::string(kKfdNodesDir) + "/" + name + "/properties";
    auto text = host.read(path);
    if (!text) {
      warnings.push_back(rocm_warning(cannot_read(path, text.error())));
      if (text.error().code != ENOENT) topology.unreadable.emplace_back(path, text.error());
      continue;
    }
    KfdNode node{name, parse_kfd_node_properties(*text)};
    if (node.props.is_gpu()) topology.gpus.push_back(std::move(node));
  }
  return topology;
}

// What one /sys/class/drm/cardN says about its device.
struct Card {
  std::string name;  // "card0"
  std::string device_dir;
  std::optional<std::uint16_t> vendor;
  std::optional<std::uint16_t> device;
  std::string address;  // "0000:c1:00.0"; "" when unknown
  std::string driver;   // "" when none
};

class RocmScan {
 public:
  RocmScan(Host& host, ProbeResult& result) : host_(host), result_(result), memory_(host) {}

  void run() {
    for (const auto& card_name : card_names()) {
      auto card = read_card(card_name);
      if (!card || card->vendor != kAmdVendor) continue;
      if (!card->address.empty() && !seen_.insert(card->address).second) continue;
      add_card(*card);
    }
    add_unbound_bus_devices();
    for (std::size_t i = 0; i < result_.entries.size(); ++i) result_.entries[i].index = int(i);
    for (auto& e : result_.entries)
      if (e.partition) e.partition->parent_index = index_of(e.partition->parent_physical_id);
    rocm_apply_visible_devices(host_, result_);
    set_backend_line();
  }

 private:
  Host& host_;
  ProbeResult& result_;
  HostMeminfo memory_;
  std::optional<KfdTopology> kfd_;
  std::string unreadable_;      // a folder we were refused, when that hid every GPU
  std::set<std::string> seen_;  // PCI addresses already given an entry

  void warn(std::string message) { result_.warnings.push_back(rocm_warning(std::move(message))); }

  int index_of(const std::string& physical_id) const {
    for (const auto& e : result_.entries)
      if (e.physical_id == physical_id && !e.partition) return e.index;
    return 0;
  }

  const KfdTopology& kfd() {
    if (!kfd_) kfd_ = read_kfd_topology(host_, result_.warnings);
    return *kfd_;
  }

  // card0, card1, ..., card10 in numeric order; connectors and render nodes left out.
  std::vector<std::string> card_names() {
    std::vector<std::string> cards;
    auto names = host_.list(kDrmDir);
    if (!names) {
      if (names.error().code != ENOENT)
        warn("cannot list " + std::string(kDrmDir) + " (" + names.error().errno_name() + ")");
      if (names.error().code == EACCES || names.error().code == EPERM)
        unreadable_ = std::string(kDrmDir);
      return cards;
    }
    for (const auto& n : *names)
      if (is_drm_card_name(n)) cards.push_back(n);
    std::sort(cards.begin(), cards.end(), [](const std::string& a, const std::string& b) {
      return node_number(a.substr(4)) < node_number(b.substr(4));
    });
    return cards;
  }

  // A file whose absence is normal; other errors are worth a warning.
  std::optional<std::string> read_optional(const std::string& path) {
    auto text = host_.read(path);
    if (text) return *text;
    if (text.error().code != ENOENT) warn(cannot_read(path, text.error()));
    return std::nullopt;
  }

  std::optional<std::uint16_t> read_id(const std::string& path) {
    auto text = read_optional(path);
    if (!text) return std::nullopt;
    auto v = parse_sysfs_hex(*text);
    if (!v || *v > 0xffff) return std::nullopt;
    return std::uint16_t(*v);
  }

  // nullopt when the card has no device behind it that says who made it (a
  // platform device such as an amdgpu_xcp partition, a virtual display).
  std::optional<Card> read_card(const std::string& name) {
    Card card;
    card.name = name;
    const std::string card_dir = std::string(kDrmDir) + "/" + name;
    card.device_dir = card_dir + "/device";
    std::optional<DrmDeviceUevent> uevent;
    auto get_uevent = [&]() -> const DrmDeviceUevent& {
      if (!uevent) {
        auto text = read_optional(card.device_dir + "/uevent");
        uevent = text ? parse_drm_device_uevent(*text) : DrmDeviceUevent{};
      }
      return *uevent;
    };
    card.vendor = read_id(card.device_dir + "/vendor");
    if (!card.vendor) card.vendor = get_uevent().vendor;
    if (!card.vendor) return std::nullopt;
    if (*card.vendor != kAmdVendor) return card;

    card.device = read_id(card.device_dir + "/device");
    if (!card.device) card.device = get_uevent().device;
    if (auto target = host_.readlink(card.device_dir))
      card.address = normalize_pci_address(link_basename(*target)).value_or("");
    if (card.address.empty()) card.address = get_uevent().slot_name;
    auto driver = host_.readlink(card.device_dir + "/driver");
    if (driver)
      card.driver = link_basename(*driver);
    else
      card.driver = get_uevent().driver;
    return card;
  }

  std::optional<std::uint64_t> read_bytes(const std::string& path, bool& any_missing) {
    auto text = host_.read(path);
    if (!text) {
      warn(cannot_read(path, text.error()));
      any_missing = true;
      return std::nullopt;
    }
    auto value = parse_sysfs_bytes(*text);
    if (!value) {
      warn(path + " holds \"" + first_meaningful_line(*text, 40) + "\", not a number of bytes");
      any_missing = true;
    }
    return value;
  }

  std::string model_name(std::optional<std::uint16_t> device) {
    if (device) {
      if (auto model = find_amd_gpu_model(*device)) return std::string(model->name);
      return "AMD GPU " + hex4(*device);
    }
    return "AMD GPU";
  }

  Entry base_entry(const std::string& address, std::optional<std::uint16_t> device) {
    Entry e;
    e.backend = "rocm";
    e.api = std::string(kApi);
    e.vendor = "AMD";
    e.type = DeviceType::gpu;
    e.pci_vendor_id = kAmdVendor;
    e.pci_device_id = device;
    e.pci_bus_id = address;
    e.physical_id = address.empty() ? "" : "pci:" + address;
    e.name = model_name(device);
    return e;
  }

  void fill_memory(const Card& card, bool apu, Entry& e) {
    const std::string dir = card.device_dir;
    bool missing = false;
    if (apu) {
      // An APU's VRAM is a small carve-out; what the GPU works in is system memory
      // mapped through the GTT, so the figures are the GTT size and what the host has free.
      auto gtt = read_bytes(dir + "/mem_info_gtt_total", missing);
      e.provenance.push_back("file:" + dir + "/mem_info_gtt_total");
      e.provenance.push_back("file:" + std::string(kMeminfo));
      e.memory.kind = MemoryKind::unified;
      e.memory.total_bytes = gtt;
      std::string why;
      const auto& info = memory_.get(why);
      if (!info || !info->available_bytes) {
        warn("GPU " + card.address + " shares host memory but " + std::string(kMeminfo) +
             (info ? " has no MemAvailable" : " cannot be read (" + why + ")") +
             "; free memory unknown");
      } else if (gtt) {
        e.memory.free_bytes = std::min(*info->available_bytes, *gtt);
      }
      e.memory.source =
          "sysfs mem_info_gtt_total (GPU-visible system memory); free: /proc/meminfo " +
          std::string(info && info->available_estimated ? "MemFree+Buffers+Cached"
                                                        : "MemAvailable") +
          " capped at the GTT size";
      return;
    }
    auto total = read_bytes(dir + "/mem_info_vram_total", missing);
    auto used = read_bytes(dir + "/mem_info_vram_used", missing);
    e.provenance.push_back("file:" + dir + "/mem_info_vram_total");
    e.provenance.push_back("file:" + dir + "/mem_info_vram_used");
    e.memory.kind = MemoryKind::discrete;
    e.memory.total_bytes = total;
    if (total && used) {
      if (*used <= *total)
        e.memory.free_bytes = *total - *used;
      else
        warn(dir + "/mem_info_vram_used (" + std::to_string(*used) +
             ") exceeds mem_info_vram_total (" + std::to_string(*total) + "); free memory unknown");
    }
    e.memory.source = "sysfs mem_info_vram_total, mem_info_vram_used";
  }

  const KfdNode* match_kfd_node(const Card& card, std::optional<int> render_minor,
                                const std::optional<PciAddressParts>& address) {
    const auto& topology = kfd();
    if (render_minor)
      for (const auto& node : topology.gpus)
        if (node.props.drm_render_minor && int(*node.props.drm_render_minor) == *render_minor)
          return &node;
    if (address)
      for (const auto& node : topology.gpus)
        if (node.props.domain == address->domain &&
            node.props.location_id == std::uint32_t(address->devfn_id()))
          return &node;
    (void)card;
    return nullptr;
  }

  void add_card(const Card& card) {
    Entry e = base_entry(card.address, card.device);
    if (e.physical_id.empty()) e.physical_id = "drm:" + card.name;
    e.provenance.push_back("file:" + card.device_dir + "/vendor");
    if (auto numa = read_optional(card.device_dir + "/numa_node"))
      e.numa_node = parse_sysfs_numa_node(*numa);
    if (auto cpus = read_optional(card.device_dir + "/local_cpulist"))
      e.cpu_affinity = printable_line(*cpus, 200);

    if (card.driver != "amdgpu") {
      e.status = EntryStatus::unavailable;
      e.reason = Reason{ReasonCode::driver_not_found,
                        card.address + ": " +
                            (card.driver.empty() ? "no driver bound"
                                                 : "bound to " + card.driver + ", not amdgpu")};
      result_.entries.push_back(std::move(e));
      return;
    }

    const auto model = card.device ? find_amd_gpu_model(*card.device) : std::nullopt;
    if (auto product = read_optional(card.device_dir + "/product_name")) {
      auto name = printable_line(*product, 100);
      if (!name.empty()) {
        e.name = name;
        e.provenance.push_back("file:" + card.device_dir + "/product_name");
      }
    }
    const bool apu = model && model->apu;
    fill_memory(card, apu, e);

    auto address = parse_pci_address(card.address);
    std::optional<int> render_minor;
    if (auto names = host_.list(card.device_dir + "/drm"))
      render_minor = render_minor_from_names(*names);
    const auto& topology = kfd();
    const KfdNode* node = match_kfd_node(card, render_minor, address);
    e.status = EntryStatus::ready;
    if (!topology.present && topology.missing_errno != ENOENT) {
      // A KFD we may not list is not an absent KFD.
      e.status = EntryStatus::unavailable;
      e.reason = Reason{
          denied(topology.missing_errno) ? ReasonCode::permission_denied : ReasonCode::probe_failed,
          card.address + ": " + std::string(kKfdNodesDir) + " cannot be listed (" +
              topology.missing_why + "), so ROCm's view of this GPU is unknown"};
    } else if (!topology.present) {
      e.status = EntryStatus::unavailable;
      e.reason = Reason{ReasonCode::driver_not_found,
                        card.address +
                            ": amdgpu is bound but KFD, ROCm's compute interface, is "
                            "not (" +
                            std::string(kKfdNodesDir) + ": " + topology.missing_why + ")"};
    } else if (!node && !topology.unreadable.empty()) {
      const auto& [path, error] = topology.unreadable.front();
      e.status = EntryStatus::unavailable;
      e.reason =
          Reason{denied(error.code) ? ReasonCode::permission_denied : ReasonCode::probe_failed,
                 card.address + ": no readable KFD node matches this GPU; " + path +
                     " cannot be read (" + error.errno_name() + ")"};
    } else if (!node) {
      e.status = EntryStatus::unavailable;
      e.reason = Reason{ReasonCode::no_backend,
                        card.address +
                            ": KFD lists no compute node for this GPU (not supported "
                            "by ROCm's kernel driver?)"};
    } else {
      e.provenance.push_back("file:" + std::string(kKfdNodesDir) + "/" + node->name +
                             "/properties");
      if (node->props.gfx_target_version)
        e.compute_class = gfx_target_name(*node->props.gfx_target_version);
    }

    std::vector<Entry> partitions;
    if (node) partitions = read_partitions(card, e, address);
    e.partitioned = !partitions.empty();
    result_.entries.push_back(std::move(e));
    for (auto& p : partitions) result_.entries.push_back(std::move(p));
  }

  // MI300-class devices split into compute partitions (CPX, DPX, QPX, TPX): each
  // partition is a KFD node of its own whose location_id carries the parent's bus.
  std::vector<Entry> read_partitions(const Card& card, const Entry& parent,
                                     const std::optional<PciAddressParts>& address) {
    std::vector<Entry> partitions;
    const std::string compute_path = card.device_dir + "/current_compute_partition";
    auto compute_text = read_optional(compute_path);
    if (!compute_text) return partitions;
    const std::string mode = parse_partition_mode(*compute_text);
    if (mode.empty()) {
      warn(compute_path + " holds \"" + first_meaningful_line(*compute_text, 40) +
           "\", not a partition mode");
      return partitions;
    }
    if (mode == "SPX" || !address) return partitions;  // one partition: the whole device
    std::string memory_mode;
    if (auto text = read_optional(card.device_dir + "/current_memory_partition"))
      memory_mode = parse_partition_mode(*text);

    std::vector<const KfdNode*> nodes;
    for (const auto& node : kfd().gpus)
      if (node.props.domain == address->domain && node.props.location_id &&
          (*node.props.location_id >> 8) == address->bus)
        nodes.push_back(&node);
    std::stable_sort(nodes.begin(), nodes.end(), [](const KfdNode* a, const KfdNode* b) {
      return (*a->props.location_id & 0xff) < (*b->props.location_id & 0xff);
    });
    if (nodes.size() < 2) {
      warn(card.address + " is in compute partition mode " + mode + " but KFD lists " +
           std::to_string(nodes.size()) + " node(s) for it");
      return partitions;
    }
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const KfdNode& node = *nodes[k];
      Entry p = base_entry(card.address, card.device);
      p.physical_id = parent.physical_id + "/partition" + std::to_string(k);
      p.name = parent.name + " (" + mode + " partition " + std::to_string(k) + ")";
      p.numa_node = parent.numa_node;
      p.cpu_affinity = parent.cpu_affinity;
      p.status = parent.status;
      p.reason = parent.reason;
      p.partition = Partition{mode, parent.physical_id, 0, {}, {}};
      const std::string node_dir = std::string(kKfdNodesDir) + "/" + node.name;
      p.provenance = {"file:" + compute_path, "file:" + node_dir + "/properties"};
      if (node.props.gfx_target_version)
        p.compute_class = gfx_target_name(*node.props.gfx_target_version);
      const std::string bank = node_dir + "/mem_banks/0/properties";
      p.memory.kind = MemoryKind::discrete;
      if (auto text = read_optional(bank)) {
        p.memory.total_bytes = parse_kfd_mem_bank_size(*text);
        p.provenance.push_back("file:" + bank);
      }
      p.memory.source = "kfd topology mem_banks/0 size_in_bytes (this partition's share" +
                        (memory_mode.empty() ? std::string() : " in " + memory_mode) +
                        "; free is not reported per partition)";
      partitions.push_back(std::move(p));
    }
    return partitions;
  }

  // AMD display/accelerator functions on the bus that no amdgpu card showed.
  void add_unbound_bus_devices() {
    for (const auto& dev : pci_devices_of_vendor(host_, kAmdVendor)) {
      if (!dev.is_display() && !dev.is_accelerator()) continue;  // audio, USB, PSP ...
      if (!seen_.insert(dev.address).second) continue;
      Entry e = base_entry(dev.address, dev.device);
      e.numa_node = dev.numa_node;
      e.status = EntryStatus::unavailable;
      e.provenance.push_back("file:" + std::string(kPciDevicesDir) + "/" + dev.address);
      if (dev.driver == "amdgpu")
        e.reason = Reason{ReasonCode::probe_failed,
                          dev.address + ": amdgpu is bound but " + std::string(kDrmDir) +
                              " shows no card for it (the driver failed to initialise?)"};
      else
        e.reason = Reason{ReasonCode::driver_not_found,
                          dev.address + ": " +
                              (dev.driver.empty() ? "no driver bound" : "bound to " + dev.driver)};
      result_.entries.push_back(std::move(e));
    }
  }

  void set_backend_line() {
    auto& backend = result_.backend;
    backend.ready = std::any_of(result_.entries.begin(), result_.entries.end(),
                                [](const Entry& e) { return e.status == EntryStatus::ready; });
    if (backend.ready) return;
    if (result_.entries.empty() && !unreadable_.empty()) {
      backend.reason = Reason{
          ReasonCode::permission_denied,
          "cannot list " + unreadable_ + " (EACCES): this user may not see the GPUs in sysfs"};
      return;
    }
    if (result_.entries.empty()) {
      backend.reason = Reason{ReasonCode::no_device, "no AMD GPU on the PCI bus"};
      return;
    }
    Reason first = *result_.entries.front().reason;
    if (result_.entries.size() > 1)
      first.detail =
          std::to_string(result_.entries.size()) + " AMD GPUs, none usable; " + first.detail;
    backend.reason = std::move(first);
  }
};

}  // namespace

ProbeResult RocmProbe::run(Host& host) const {
  ProbeResult result;
  result.backend.name = "rocm";
  RocmScan(host, result).run();
  return result;
}

}  // namespace hwaccel
