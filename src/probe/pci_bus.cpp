#include "src/probe/pci_bus.h"

#include <cerrno>

#include "src/host/findings.h"
#include "src/vocabulary/path.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {

std::optional<std::uint32_t> parse_sysfs_hex(std::string_view text) {
  auto value = parse_hex(trim(text));
  if (!value || *value > 0xffffffffu) return std::nullopt;
  return std::uint32_t(*value);
}

std::optional<int> parse_sysfs_numa_node(std::string_view text) {
  auto t = trim(text);
  if (t.empty() || t.front() == '-') return std::nullopt;  // -1: no NUMA affinity
  auto value = parse_u64(t);
  if (!value || *value > 4096) return std::nullopt;
  return int(*value);
}

namespace {

std::optional<std::uint32_t> read_hex(Host& host, const std::string& path) {
  auto text = host.read(path);
  if (!text) return std::nullopt;
  return parse_sysfs_hex(*text);
}

std::optional<std::uint16_t> read_id(Host& host, const std::string& path) {
  auto v = read_hex(host, path);
  if (!v || *v > 0xffff) return std::nullopt;
  return std::uint16_t(*v);
}

std::string driver_name(Host& host, const std::string& dir) {
  auto target = host.readlink(dir + "/driver");
  if (!target) return "";
  auto slash = target->rfind('/');
  return slash == std::string::npos ? *target : target->substr(slash + 1);
}

}  // namespace

namespace {

// The bus's functions and what each one's vendor file says: every backend walks
// the bus for its vendor's devices, and each walk read all the vendor files
// again (30 functions on the recorded DGX H100; a detection makes nine walks and
// four checks for unreadable files).
struct BusFunction {
  std::string name;  // the folder's name under kPciDevicesDir
  std::string dir;
  std::optional<Error> unreadable;      // the vendor file's read error
  std::optional<std::uint32_t> vendor;  // read, and parsed as a sysfs hex value
};
struct BusVendors {
  std::optional<Error> unlisted;  // the bus folder's list error
  std::vector<BusFunction> functions;
};

BusVendors read_bus_vendors(Host& host) {
  BusVendors bus;
  auto names = host.list(kPciDevicesDir);
  if (!names) {
    bus.unlisted = names.error();
    return bus;
  }
  bus.functions.reserve(names->size());
  for (auto& name : *names) {
    BusFunction f;
    f.dir = join_path(kPciDevicesDir, name);
    f.name = std::move(name);
    if (auto text = host.read(f.dir + "/vendor"))
      f.vendor = parse_sysfs_hex(*text);
    else
      f.unreadable = text.error();
    bus.functions.push_back(std::move(f));
  }
  return bus;
}

const char kBusVendorsTag = 0;

// Kept by a host that keeps findings; else read into `local`.
const BusVendors& bus_vendors(Host& host, std::optional<BusVendors>& local) {
  if (Findings* kept = host.findings())
    return kept->get<BusVendors>(&kBusVendorsTag, [&] { return read_bus_vendors(host); });
  return local.emplace(read_bus_vendors(host));
}

// The vendor first, so that a server's hundred bridges and NICs cost one read
// each (and one line each in a recording) when only one vendor matters.
std::vector<PciDevice> scan(Host& host, std::optional<std::uint16_t> only_vendor) {
  std::vector<PciDevice> devices;
  std::optional<BusVendors> local;
  const BusVendors& bus = bus_vendors(host, local);
  for (const BusFunction& f : bus.functions) {
    if (!f.vendor || *f.vendor > 0xffff) continue;
    const auto vendor = std::uint16_t(*f.vendor);
    if (only_vendor && vendor != *only_vendor) continue;
    const std::string& dir = f.dir;
    auto device = read_id(host, dir + "/device");
    if (!device) continue;
    PciDevice d;
    d.address = to_lower(f.name);
    d.vendor = vendor;
    d.device = *device;
    d.class_code = read_hex(host, dir + "/class").value_or(0);
    d.subsystem_vendor = read_id(host, dir + "/subsystem_vendor");
    d.subsystem_device = read_id(host, dir + "/subsystem_device");
    d.driver = driver_name(host, dir);
    if (auto numa = host.read(dir + "/numa_node")) d.numa_node = parse_sysfs_numa_node(*numa);
    devices.push_back(std::move(d));
  }
  return devices;  // list() is sorted, and so are the addresses
}

}  // namespace

std::string pci_bus_unlisted_note(Host& host) {
  auto names = host.list(kPciDevicesDir);
  if (names) return "";
  return " (" + std::string(kPciDevicesDir) + " cannot be listed: " + names.error().errno_name() +
         ")";
}

std::vector<PciUnreadable> pci_unreadable_for_vendor(Host& host, std::uint16_t vendor) {
  std::vector<PciUnreadable> out;
  auto hidden = [&](const std::string& path, const Error& e) {
    if (e.code != ENOENT) out.push_back({path, e});
  };
  std::optional<BusVendors> local;
  const BusVendors& bus = bus_vendors(host, local);
  if (bus.unlisted) {
    hidden(kPciDevicesDir, *bus.unlisted);
    return out;
  }
  for (const BusFunction& f : bus.functions) {
    const std::string& dir = f.dir;
    if (f.unreadable) {
      hidden(dir + "/vendor", *f.unreadable);
      continue;
    }
    const auto& id = f.vendor;
    if (!id || *id != vendor) continue;
    if (auto device = host.read(dir + "/device"); !device) hidden(dir + "/device", device.error());
  }
  return out;
}

std::optional<Reason> pci_unreadable_reason(Host& host, std::uint16_t vendor,
                                            std::string_view what) {
  const auto hidden = pci_unreadable_for_vendor(host, vendor);
  if (hidden.empty()) return std::nullopt;
  const auto& first = hidden.front();
  const bool denied = first.error.code == EACCES || first.error.code == EPERM;
  std::string detail = first.path + " cannot be read (" + first.error.errno_name() +
                       "): " + std::string(what) + " there could not be identified";
  if (hidden.size() > 1)
    detail += " (" + std::to_string(hidden.size() - 1) + " more unreadable PCI file" +
              (hidden.size() > 2 ? "s)" : ")");
  return Reason{denied ? ReasonCode::permission_denied : ReasonCode::probe_failed,
                std::move(detail)};
}

std::vector<PciDevice> pci_functions_without_vendor(Host& host) {
  std::vector<PciDevice> devices;
  std::optional<BusVendors> local;
  for (const BusFunction& f : bus_vendors(host, local).functions) {
    if (!f.unreadable || f.unreadable->code != ENOENT) continue;
    const std::string& dir = f.dir;
    const std::string& name = f.name;
    auto class_code = read_hex(host, dir + "/class");
    if (!class_code) continue;
    PciDevice d;
    d.address = to_lower(name);
    d.class_code = *class_code;
    if (auto uevent = host.read(dir + "/uevent")) {
      for (auto line : split_lines(*uevent)) {
        if (line.rfind("PCI_ID=", 0) != 0) continue;
        auto ids = split(line.substr(7), ':');
        if (ids.size() != 2) break;
        auto vendor = parse_hex(ids[0]);
        auto device = parse_hex(ids[1]);
        if (vendor && device && *vendor <= 0xffff && *device <= 0xffff) {
          d.vendor = std::uint16_t(*vendor);
          d.device = std::uint16_t(*device);
        }
      }
    }
    d.driver = driver_name(host, dir);
    if (auto numa = host.read(dir + "/numa_node")) d.numa_node = parse_sysfs_numa_node(*numa);
    devices.push_back(std::move(d));
  }
  return devices;
}

std::vector<PciDevice> scan_pci_bus(Host& host) {
  return scan(host, std::nullopt);
}

std::vector<PciDevice> pci_devices_of_vendor(Host& host, std::uint16_t vendor) {
  return scan(host, vendor);
}

}  // namespace hwaccel
