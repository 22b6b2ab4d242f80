#include "src/probe/oneapi_probe.h"

#include <algorithm>
#include <set>

#include "src/catalog/intel_gpu_ids.h"
#include "src/probe/amdgpu_sysfs.h"
#include "src/probe/host_meminfo.h"
#include "src/probe/pci_bus.h"
#include "src/probe/tool_outcome.h"
#include "src/probe/xpu_smi_discovery.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::string_view kDrmDir = "/sys/class/drm";
constexpr std::uint16_t kIntel = 0x8086;
constexpr int kMaxTiles = 8;

std::string hex4(std::uint16_t v) {
  constexpr char kHex[] = "0123456789abcdef";
  std::string s = "0x";
  for (int shift = 12; shift >= 0; shift -= 4) s += kHex[(v >> shift) & 0xf];
  return s;
}

struct Card {
  std::string name;  // card1
  std::string device_dir;
  std::optional<std::uint16_t> device;
  std::string address;
  std::string driver;
  std::optional<int> numa_node;
};

class OneapiScan {
 public:
  OneapiScan(Host& host, ProbeResult& r) : host_(host), r_(r), meminfo_(host) {}

  void run() {
    for (const auto& name : card_names()) {
      auto card = read_card(name);
      if (!card) continue;
      if (!card->address.empty() && !seen_.insert(card->address).second) continue;
      add_card(*card);
    }
    if (any_discrete_) apply_xpu_smi();
    add_unbound_bus_devices();
    for (std::size_t i = 0; i < r_.entries.size(); ++i) r_.entries[i].index = int(i);
    set_backend_line();
  }

 private:
  Host& host_;
  ProbeResult& r_;
  HostMeminfo meminfo_;
  std::set<std::string> seen_;
  bool any_discrete_ = false;

  void warn(std::string m) { r_.warnings.push_back(Warning{"oneapi", std::move(m)}); }

  std::optional<std::string> read_optional(const std::string& path) {
    auto text = host_.read(path);
    if (text) return *text;
    if (text.error().code != ENOENT)
      warn("cannot read " + path + " (" + text.error().errno_name() + ")");
    return std::nullopt;
  }

  std::optional<std::uint64_t> read_bytes(const std::string& path) {
    auto text = read_optional(path);
    if (!text) return std::nullopt;
    auto v = parse_sysfs_bytes(*text);
    if (!v)
      warn(path + " holds \"" + first_meaningful_line(*text, 40) + "\", not a number of bytes");
    return v;
  }

  std::vector<std::string> card_names() {
    std::vector<std::string> cards;
    auto names = host_.list(kDrmDir);
    if (!names) {
      if (names.error().code != ENOENT)
        warn("cannot list " + std::string(kDrmDir) + " (" + names.error().errno_name() + ")");
      return cards;
    }
    for (const auto& n : *names)
      if (is_drm_card_name(n)) cards.push_back(n);
    std::sort(cards.begin(), cards.end(), [](const std::string& a, const std::string& b) {
      return std::make_pair(a.size(), a) < std::make_pair(b.size(), b);
    });
    return cards;
  }

  // Intel cards only; nullopt for every other vendor.
  std::optional<Card> read_card(const std::string& name) {
    Card c;
    c.name = name;
    c.device_dir = std::string(kDrmDir) + "/" + name + "/device";
    auto vendor = read_optional(c.device_dir + "/vendor");
    if (!vendor || parse_sysfs_hex(*vendor) != kIntel) return std::nullopt;
    if (auto d = read_optional(c.device_dir + "/device"))
      if (auto v = parse_sysfs_hex(*d); v && *v <= 0xffff) c.device = std::uint16_t(*v);
    if (auto target = host_.readlink(c.device_dir))
      c.address = normalize_pci_address(link_basename(*target)).value_or("");
    if (auto link = host_.readlink(c.device_dir + "/driver")) c.driver = link_basename(*link);
    if (auto numa = read_optional(c.device_dir + "/numa_node"))
      c.numa_node = parse_sysfs_numa_node(*numa);
    return c;
  }

  Entry base_entry(const std::string& address, std::optional<std::uint16_t> device) {
    Entry e;
    e.backend = "oneapi";
    e.api = "sysfs";
    e.vendor = "Intel";
    e.type = DeviceType::gpu;
    e.pci_vendor_id = kIntel;
    e.pci_device_id = device;
    e.pci_bus_id = address;
    e.physical_id = address.empty() ? "" : "pci:" + address;
    std::optional<IntelGpuModel> model;
    if (device) model = find_intel_gpu(*device);
    if (model) {
      e.name = std::string(model->name);
      e.compute_class = std::string(model->architecture);
    } else {
      e.name = device ? "Intel GPU " + hex4(*device) : "Intel GPU";
    }
    return e;
  }

  void host_memory(Entry& e) {
    e.memory.kind = MemoryKind::unified;
    std::string why;
    const auto& info = meminfo_.get(why);
    if (info) {
      e.memory.total_bytes = info->total_bytes;
      e.memory.free_bytes = info->available_bytes;
      e.memory.source =
          "/proc/meminfo (MemTotal, MemAvailable): an integrated GPU works in host memory";
      e.provenance.push_back("file:/proc/meminfo");
    } else {
      e.memory.source = "host memory; /proc/meminfo unreadable (" + why + ")";
    }
  }

  // xe: the sum of tileN/physical_vram_size_bytes; i915 (Intel's DKMS build):
  // cardN/lmem_total_bytes and lmem_avail_bytes. false when neither is there.
  bool local_memory(const Card& c, Entry& e) {
    if (c.driver == "xe") {
      std::uint64_t total = 0;
      int tiles = 0;
      for (int t = 0; t < kMaxTiles; ++t) {
        const std::string path =
            c.device_dir + "/tile" + std::to_string(t) + "/physical_vram_size_bytes";
        auto bytes = host_.read(path);
        if (!bytes) break;
        auto v = parse_sysfs_bytes(*bytes);
        if (!v) {
          warn(path + " holds \"" + first_meaningful_line(*bytes, 40) +
               "\", not a number of bytes");
          break;
        }
        total += *v;
        ++tiles;
        e.provenance.push_back("file:" + path);
      }
      if (tiles == 0 || total == 0) return false;
      e.memory.kind = MemoryKind::discrete;
      e.memory.total_bytes = total;
      e.memory.source = "sysfs tile*/physical_vram_size_bytes (" + std::to_string(tiles) +
                        (tiles == 1 ? " tile" : " tiles") + "; xe publishes no free figure)";
      return true;
    }
    const std::string card_dir = std::string(kDrmDir) + "/" + c.name;
    auto total = host_.read(card_dir + "/lmem_total_bytes");
    if (!total) return false;
    auto t = parse_sysfs_bytes(*total);
    if (!t || *t == 0) return false;
    e.memory.kind = MemoryKind::discrete;
    e.memory.total_bytes = t;
    e.provenance.push_back("file:" + card_dir + "/lmem_total_bytes");
    e.memory.source = "sysfs lmem_total_bytes";
    if (auto avail = read_bytes(card_dir + "/lmem_avail_bytes")) {
      e.memory.free_bytes = std::min(*avail, *t);
      e.provenance.push_back("file:" + card_dir + "/lmem_avail_bytes");
      e.memory.source = "sysfs lmem_total_bytes, lmem_avail_bytes";
    }
    return true;
  }

  void add_card(const Card& c) {
    Entry e = base_entry(c.address, c.device);
    if (e.physical_id.empty()) e.physical_id = "drm:" + c.name;
    e.numa_node = c.numa_node;
    e.provenance.push_back("file:" + c.device_dir + "/vendor");
    if (c.driver != "i915" && c.driver != "xe") {
      // simpledrm/efifb over an Intel iGPU, or vfio-pci: there is a card, not a GPU driver.
      e.status = EntryStatus::unavailable;
      e.reason = Reason{ReasonCode::driver_not_found,
                        (c.address.empty() ? c.name : c.address) + ": " +
                            (c.driver.empty() ? "no driver bound" : "bound to " + c.driver) +
                            " (i915 or xe expected)"};
      host_memory(e);
      r_.entries.push_back(std::move(e));
      return;
    }
    std::optional<IntelGpuModel> model;
    if (c.device) model = find_intel_gpu(*c.device);
    if (local_memory(c, e)) {
      any_discrete_ = true;
    } else if (model && model->discrete) {
      any_discrete_ = true;
      e.memory.kind = MemoryKind::discrete;
      e.memory.source = std::string("not published by ") + c.driver +
                        " in sysfs (mainline i915 has no local-memory file)";
    } else {
      host_memory(e);  // integrated
    }
    r_.entries.push_back(std::move(e));
  }

  void apply_xpu_smi() {
    ToolRun run = host_.run({"xpu-smi", "discovery"});
    if (run.outcome == ToolOutcome::not_found) return;  // optional: sysfs already told us
    if (auto why = reason_for_tool_outcome("xpu-smi", run)) {
      warn(why->detail + "; names from the PCI id table");
      return;
    }
    if (!run.ok()) {
      warn("xpu-smi discovery exited with status " + std::to_string(run.exit_code) + ": " +
           first_meaningful_line(combined_output(run), 120));
      return;
    }
    auto discovery = parse_xpu_smi_discovery(run.out);
    for (const auto& p : discovery.problems) warn("xpu-smi discovery: " + p);
    for (const auto& d : discovery.devices) {
      auto at = std::find_if(r_.entries.begin(), r_.entries.end(), [&](const Entry& e) {
        return !d.pci_address.empty() && e.pci_bus_id == d.pci_address;
      });
      if (at == r_.entries.end()) {
        if (!d.pci_address.empty())
          warn("xpu-smi lists " + d.pci_address + " that sysfs shows no Intel card for");
        continue;
      }
      if (!d.name.empty()) at->name = without_trademarks(d.name);
      at->api = "xpu-smi";
      at->provenance.push_back("tool:xpu-smi discovery");
    }
  }

  void add_unbound_bus_devices() {
    for (const auto& dev : pci_devices_of_vendor(host_, kIntel)) {
      if (!dev.is_display()) continue;
      if (!seen_.insert(dev.address).second) continue;
      Entry e = base_entry(dev.address, dev.device);
      e.numa_node = dev.numa_node;
      e.provenance.push_back("file:" + std::string(kPciDevicesDir) + "/" + dev.address);
      e.status = EntryStatus::unavailable;
      if (dev.driver == "i915" || dev.driver == "xe")
        e.reason =
            Reason{ReasonCode::probe_failed, dev.address + ": " + dev.driver + " is bound but " +
                                                 std::string(kDrmDir) + " shows no card for it"};
      else
        e.reason = Reason{ReasonCode::driver_not_found,
                          dev.address + ": " +
                              (dev.driver.empty() ? "no driver bound" : "bound to " + dev.driver) +
                              " (i915 or xe expected)"};
      auto model = find_intel_gpu(dev.device);
      if (model && model->discrete)
        e.memory.source = "unknown without a driver";
      else
        host_memory(e);
      r_.entries.push_back(std::move(e));
    }
  }

  void set_backend_line() {
    r_.backend.ready = std::any_of(r_.entries.begin(), r_.entries.end(),
                                   [](const Entry& e) { return e.status == EntryStatus::ready; });
    if (r_.backend.ready) return;
    if (r_.entries.empty()) {
      r_.backend.reason = Reason{ReasonCode::no_device, "no Intel GPU on the PCI bus"};
      return;
    }
    r_.backend.reason = r_.entries.front().reason;
  }
};

}  // namespace

ProbeResult OneapiProbe::run(Host& host) const {
  ProbeResult r;
  r.backend.name = "oneapi";
  OneapiScan(host, r).run();
  return r;
}

}  // namespace hwaccel
