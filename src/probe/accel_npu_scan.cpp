#include "src/probe/accel_npu_scan.h"

#include <algorithm>
#include <set>

#include "src/probe/amdgpu_sysfs.h"
#include "src/probe/host_meminfo.h"
#include "src/probe/pci_bus.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::string_view kAccelClass = "/sys/class/accel";
constexpr std::string_view kAccelDev = "/dev/accel";

// One candidate: a class device (accelN or the misc node) and its PCI function.
struct Candidate {
  std::string class_dir;  // /sys/class/accel/accel0
  std::string node;       // /dev/accel/accel0
  std::string address;    // 0000:00:0b.0; "" unknown
  std::optional<std::uint16_t> vendor, device;
  std::optional<std::uint8_t> revision;
  std::string driver;
  std::optional<int> numa_node;
};

class NpuScan {
 public:
  NpuScan(Host& host, const NpuFamily& family, ProbeResult& r)
      : host_(host), family_(family), r_(r), meminfo_(host) {}

  void run() {
    for (auto& c : accel_candidates()) consider(c);
    if (!family_.misc_class_dir.empty()) {
      if (auto c = misc_candidate()) consider(*c);
    }
    add_unbound_bus_devices();
    for (std::size_t i = 0; i < r_.entries.size(); ++i) r_.entries[i].index = int(i);
    set_backend_line();
  }

 private:
  Host& host_;
  const NpuFamily& family_;
  ProbeResult& r_;
  HostMeminfo meminfo_;
  std::set<std::string> seen_;

  void warn(std::string m) { r_.warnings.push_back(Warning{family_.backend, std::move(m)}); }

  std::optional<std::string> read_optional(const std::string& path) {
    auto text = host_.read(path);
    if (text) return *text;
    if (text.error().code != ENOENT)
      warn("cannot read " + path + " (" + text.error().errno_name() + ")");
    return std::nullopt;
  }

  std::optional<std::uint32_t> read_hex(const std::string& path) {
    auto text = read_optional(path);
    if (!text) return std::nullopt;
    return parse_sysfs_hex(*text);
  }

  Candidate read_candidate(const std::string& class_dir, const std::string& node) {
    Candidate c;
    c.class_dir = class_dir;
    c.node = node;
    const std::string dev = class_dir + "/device";
    if (auto target = host_.readlink(dev))
      c.address = normalize_pci_address(link_basename(*target)).value_or("");
    if (auto v = read_hex(dev + "/vendor"); v && *v <= 0xffff) c.vendor = std::uint16_t(*v);
    if (auto v = read_hex(dev + "/device"); v && *v <= 0xffff) c.device = std::uint16_t(*v);
    if (auto v = read_hex(dev + "/revision"); v && *v <= 0xff) c.revision = std::uint8_t(*v);
    if (auto link = host_.readlink(dev + "/driver")) c.driver = link_basename(*link);
    if (auto numa = read_optional(dev + "/numa_node")) c.numa_node = parse_sysfs_numa_node(*numa);
    return c;
  }

  std::vector<Candidate> accel_candidates() {
    std::vector<Candidate> out;
    auto names = host_.list(kAccelClass);
    if (!names) {
      if (names.error().code != ENOENT)
        warn("cannot list " + std::string(kAccelClass) + " (" + names.error().errno_name() + ")");
      return out;
    }
    std::vector<std::pair<int, std::string>> numbered;
    for (const auto& n : *names)
      if (auto k = accel_node_number(n)) numbered.emplace_back(*k, n);
    std::sort(numbered.begin(), numbered.end());
    for (const auto& [k, n] : numbered)
      out.push_back(
          read_candidate(std::string(kAccelClass) + "/" + n, std::string(kAccelDev) + "/" + n));
    return out;
  }

  std::optional<Candidate> misc_candidate() {
    auto kind = host_.stat(family_.misc_class_dir);
    if (!kind) return std::nullopt;
    return read_candidate(family_.misc_class_dir, family_.misc_node);
  }

  bool ours(const Candidate& c) const {
    if (std::find(family_.drivers.begin(), family_.drivers.end(), c.driver) !=
        family_.drivers.end())
      return true;
    return c.vendor == family_.pci_vendor && c.device && family_.model(*c.device, c.revision);
  }

  void fill_memory(Entry& e) {
    // An NPU has no memory of its own: it works in host memory the driver maps for it.
    e.memory.kind = MemoryKind::unified;
    std::string why;
    const auto& info = meminfo_.get(why);
    if (info) {
      e.memory.total_bytes = info->total_bytes;
      e.memory.free_bytes = info->available_bytes;
      e.memory.source = "/proc/meminfo (MemTotal, MemAvailable): the NPU works in host memory";
      e.provenance.push_back("file:/proc/meminfo");
    } else {
      e.memory.source = "host memory; /proc/meminfo unreadable (" + why + ")";
    }
  }

  Entry base_entry(const std::string& address, std::optional<std::uint16_t> device,
                   std::optional<std::uint8_t> revision) {
    Entry e;
    e.backend = family_.backend;
    e.api = "accel";
    e.vendor = family_.vendor;
    e.type = DeviceType::npu;
    e.pci_vendor_id = family_.pci_vendor;
    e.pci_device_id = device;
    e.pci_bus_id = address;
    e.physical_id = address.empty() ? "" : "pci:" + address;
    std::optional<NpuModel> model;
    if (device) model = family_.model(*device, revision);
    if (model) {
      e.name = std::string(model->name) + " [" + std::string(model->generation) + "]";
      e.compute_class = std::string(model->compute_class);
    } else {
      e.name = family_.label;
    }
    return e;
  }

  // Whether this user may open the node: stat through the Host (a snapshot's
  // {error: EACCES}; live, an unreadable /dev/accel), then `test -r -a -w`
  // (access(2) for this user, without opening the device).
  std::optional<Reason> node_access(const std::string& node, Entry& e) {
    auto kind = host_.stat(node);
    if (!kind) {
      if (kind.error().code == EACCES || kind.error().code == EPERM)
        return Reason{ReasonCode::permission_denied,
                      node + ": " + kind.error().errno_name() +
                          " (this user may not open the NPU; its node's group is usually render)"};
      return Reason{
          ReasonCode::driver_not_found,
          node + " is missing (" + kind.error().errno_name() + ") though " + "the driver is bound"};
    }
    e.provenance.push_back("file:" + node + " (stat)");
    ToolRun test = host_.run({"test", "-r", node, "-a", "-w", node});
    if (test.outcome == ToolOutcome::exited) {
      e.provenance.push_back("tool:test -r " + node + " -a -w " + node);
      if (test.exit_code == 1)
        return Reason{ReasonCode::permission_denied,
                      node +
                          " may not be opened for reading and writing by this user "
                          "(add the user to the node's group, usually render)"};
    }
    return std::nullopt;
  }

  void consider(const Candidate& c) {
    if (!ours(c)) return;
    if (!c.address.empty() && !seen_.insert(c.address).second) return;
    Entry e = base_entry(c.address, c.device, c.revision);
    if (e.physical_id.empty()) e.physical_id = family_.backend + ":" + link_basename(c.class_dir);
    e.numa_node = c.numa_node;
    e.provenance.push_back("file:" + c.class_dir + "/device");
    fill_memory(e);
    const bool bound = std::find(family_.drivers.begin(), family_.drivers.end(), c.driver) !=
                       family_.drivers.end();
    if (!bound) {
      e.status = EntryStatus::unavailable;
      e.reason = Reason{ReasonCode::driver_not_found,
                        (c.address.empty() ? c.class_dir : c.address) + ": " +
                            (c.driver.empty() ? "no driver bound" : "bound to " + c.driver)};
    } else if (auto denied = node_access(c.node, e)) {
      e.status = EntryStatus::unavailable;
      e.reason = *denied;
    }
    r_.entries.push_back(std::move(e));
  }

  // The family's NPUs on the PCI bus that no accel device showed: no driver.
  void add_unbound_bus_devices() {
    for (const auto& dev : pci_devices_of_vendor(host_, family_.pci_vendor)) {
      std::optional<std::uint8_t> revision;
      if (auto v = read_hex(std::string(kPciDevicesDir) + "/" + dev.address + "/revision");
          v && *v <= 0xff)
        revision = std::uint8_t(*v);
      if (!family_.model(dev.device, revision)) continue;
      if (!seen_.insert(dev.address).second) continue;
      Entry e = base_entry(dev.address, dev.device, revision);
      e.numa_node = dev.numa_node;
      e.provenance.push_back("file:" + std::string(kPciDevicesDir) + "/" + dev.address);
      fill_memory(e);
      e.status = EntryStatus::unavailable;
      std::string wanted = family_.drivers.empty() ? "" : family_.drivers.front();
      if (std::find(family_.drivers.begin(), family_.drivers.end(), dev.driver) !=
          family_.drivers.end())
        e.reason = Reason{ReasonCode::probe_failed,
                          dev.address + ": " + dev.driver + " is bound but " +
                              std::string(kAccelClass) + " shows no device for it"};
      else
        e.reason = Reason{ReasonCode::driver_not_found,
                          dev.address + ": " +
                              (dev.driver.empty() ? "no driver bound" : "bound to " + dev.driver) +
                              " (" + wanted + " expected)"};
      r_.entries.push_back(std::move(e));
    }
  }

  void set_backend_line() {
    r_.backend.ready = std::any_of(r_.entries.begin(), r_.entries.end(),
                                   [](const Entry& e) { return e.status == EntryStatus::ready; });
    if (r_.backend.ready) return;
    if (r_.entries.empty()) {
      r_.backend.reason =
          Reason{ReasonCode::no_device,
                 "no " + family_.label + " in " + std::string(kAccelClass) + " or on the PCI bus"};
      return;
    }
    r_.backend.reason = r_.entries.front().reason;
  }
};

}  // namespace

std::optional<int> accel_node_number(std::string_view name) {
  if (name.size() < 6 || name.substr(0, 5) != "accel") return std::nullopt;
  auto n = parse_u64(name.substr(5));
  if (!n || *n > 1000000) return std::nullopt;
  return int(*n);
}

ProbeResult scan_accel_npus(Host& host, const NpuFamily& family) {
  ProbeResult r;
  r.backend.name = family.backend;
  NpuScan(host, family, r).run();
  return r;
}

}  // namespace hwaccel
