// PCI as the kernel lays it out (Documentation/ABI/testing/sysfs-bus-pci,
// drivers/pci/pci-sysfs.c): each device a folder below its host bridge and the
// bridges above it in /sys/devices/pciDDDD:BB/ (sim/pci_layout.h decides them
// from the recorded topo -m and NUMA nodes), /sys/bus/pci/devices/* links into
// it, a `config` of 256 bytes (the type 0 header's vendor, device, revision,
// class, subsystem), `revision`, `local_cpulist`/`local_cpus` from its NUMA
// node, and a driver folder /sys/bus/pci/drivers/DRV/ that links back to its
// devices. A snapshot records the devices as plain folders at
// /sys/bus/pci/devices/BDF (what the probes read through the links); the fill
// moves them to the kernel's place. Root and switch ports get a type 1 header
// whose bus numbers hold the buses below them, bound to pcieport.
//
// Display devices bound to a DRM driver get their DRM minors where the snapshot
// records no /sys/class/drm (drivers/gpu/drm/drm_sysfs.c): DEV/drm/cardN and
// renderD(128+M) with `dev` and `uevent`, and /sys/class/drm/* links to them;
// cards and render nodes are numbered separately, in bus order (a server's BMC
// VGA, ast or mgag200, takes a card and no render node).
//
// Also /sys/class/dmi/id, which the kernel makes a link to /sys/devices/virtual/dmi/id.
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>

#include "sim/kernel_fill_parts.h"

namespace hwaccel::sim {
namespace {

const std::string kBus = "/sys/bus/pci/devices/";

// "0000:1b:00.0": four, two, two hex digits and one digit 0-7, lower case.
bool is_bdf(std::string_view s) {
  if (s.size() != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (!std::isxdigit(static_cast<unsigned char>(s[i])) ||
        std::isupper(static_cast<unsigned char>(s[i])))
      return false;
  return s[11] >= '0' && s[11] <= '7';
}

// Moves every recorded entry at or below `from` to `to`.
void move_tree(Snapshot& s, const std::string& from, const std::string& to, FilledPaths& filled,
               const std::string& why) {
  std::vector<std::pair<std::string, FileEntry>> moved;
  for (auto it = s.files.lower_bound(from); it != s.files.end();) {
    const std::string& p = it->first;
    if (p.compare(0, from.size(), from) != 0) break;
    if (p.size() > from.size() && p[from.size()] != '/') {
      ++it;
      continue;
    }
    moved.emplace_back(to + p.substr(from.size()), std::move(it->second));
    it = s.files.erase(it);
  }
  for (auto& [p, e] : moved) {
    filled[p] = why;
    s.files.insert_or_assign(p, std::move(e));
  }
}

std::string config_space(long long vendor, long long device, long long cls, long long rev,
                         long long sub_vendor, long long sub_device) {
  std::string c(256, '\0');
  auto put16 = [&](int at, long long v) {
    if (v < 0) return;
    c[at] = static_cast<char>(v & 0xff);
    c[at + 1] = static_cast<char>((v >> 8) & 0xff);
  };
  put16(0x00, vendor);
  put16(0x02, device);
  put16(0x04, 0x0006);  // command: memory space and bus master enabled
  put16(0x06, 0x0010);  // status: a capabilities list (none written: the pointer is 0)
  c[0x08] = static_cast<char>(rev < 0 ? 0 : rev & 0xff);
  if (cls >= 0) {
    c[0x09] = static_cast<char>(cls & 0xff);
    c[0x0a] = static_cast<char>((cls >> 8) & 0xff);
    c[0x0b] = static_cast<char>((cls >> 16) & 0xff);
  }
  put16(0x2c, sub_vendor);
  put16(0x2e, sub_device);
  return c;
}

// A recorded numa_node, bounded: a hostile number is no node (-1).
long long node_of(const std::optional<std::string>& n) {
  if (!n) return -1;
  long long v = -1;
  auto [end, ec] = std::from_chars(n->data(), n->data() + n->size(), v);
  return ec == std::errc() && v >= 0 && v < 4096 ? v : -1;
}

// From a device's folder (below /sys/devices/) back up to /sys.
std::string ups(const std::string& below_devices) {
  std::string out = "../../";
  for (char c : below_devices)
    if (c == '/') out += "../";
  return out;
}

// Root ports are the CPU's (its root complex): its vendor's PCI id where the
// snapshot's cpuinfo names one (pci.ids: 8086 Intel, 1022 AMD), else 0.
long long root_port_vendor(const Filler& f) {
  auto info = f.read("/proc/cpuinfo");
  if (!info) return 0;
  if (info->find("GenuineIntel") != std::string::npos) return 0x8086;
  if (info->find("AuthenticAMD") != std::string::npos) return 0x1022;
  return 0;
}

// The kernel's `resource` (pci-sysfs.c resource_show): start, end and flags of
// each region, 13 lines for a device (BARs, ROM, SR-IOV BARs), 17 for a bridge
// (with its windows). None recorded: all zero (lspci -v reads the file).
std::string zero_resources(int lines) {
  std::string out;
  for (int i = 0; i < lines; ++i)
    out += "0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
  return out;
}

std::string hex(long long v, int digits) {
  char out[16];
  std::snprintf(out, sizeof out, "0x%0*llx\n", digits, v);
  return out;
}

// A PCI-to-PCI bridge's type 1 header (PCI-to-PCI Bridge spec; the kernel's
// include/uapi/linux/pci_regs.h offsets): bus numbers at 0x18-0x1a and a PCI
// Express capability at 0x40 whose port type says root port (4), switch
// upstream (5) or downstream (6) port.
std::string bridge_config(long long vendor, const PciBridge& b) {
  std::string c(256, '\0');
  c[0x00] = static_cast<char>(vendor & 0xff);
  c[0x01] = static_cast<char>((vendor >> 8) & 0xff);
  c[0x04] = 0x07;  // command: I/O, memory, bus master
  c[0x06] = 0x10;  // status: a capabilities list
  c[0x0a] = 0x04;  // class 0x0604: PCI-to-PCI bridge
  c[0x0b] = 0x06;
  c[0x0e] = 0x01;  // header type 1
  c[0x18] = static_cast<char>(b.bus);
  c[0x19] = static_cast<char>(b.secondary);
  c[0x1a] = static_cast<char>(b.subordinate);
  c[0x34] = 0x40;
  c[0x40] = 0x10;  // PCI Express, no next capability
  const int type = b.kind == PciBridge::Kind::root_port   ? 4
                   : b.kind == PciBridge::Kind::switch_up ? 5
                                                          : 6;
  c[0x42] = static_cast<char>(0x02 | type << 4);  // capability version 2
  return c;
}

void fill_bridge(Filler& f, const PciBridge& b, long long cpu_vendor, const std::string& stated) {
  const std::string bdf = pci_bdf(b.domain, b.bus, b.dev, b.fn);
  const std::string d = "/sys/devices/" + b.path + "/";
  const char* what = b.kind == PciBridge::Kind::root_port   ? "a PCIe root port"
                     : b.kind == PciBridge::Kind::switch_up ? "a PCIe switch's upstream port"
                                                            : "a PCIe switch's downstream port";
  const std::string why = std::string(what) + " above bus " + hex(b.secondary, 2).substr(2, 2) +
                          " (sim/pci_layout.h" + stated + ")";
  const long long vendor = b.kind == PciBridge::Kind::root_port ? cpu_vendor : 0;
  f.file(d + "vendor", hex(vendor, 4),
         vendor ? why + "; the CPU's vendor" : why + "; vendor not recorded: 0x0000");
  f.file(d + "device", "0x0000\n", why + "; device not recorded");
  f.file(d + "class", "0x060400\n", why);
  f.file(d + "revision", "0x00\n", why);
  f.file(d + "subsystem_vendor", "0x0000\n", why);
  f.file(d + "subsystem_device", "0x0000\n", why);
  f.file(d + "config", bridge_config(vendor, b), why);
  f.file(d + "numa_node", std::to_string(b.numa) + "\n", why + "; the node of the devices below");
  f.file(d + "secondary_bus_number", std::to_string(b.secondary) + "\n", why);
  f.file(d + "subordinate_bus_number", std::to_string(b.subordinate) + "\n", why);
  f.file(d + "enable", "1\n", why);
  f.file(d + "irq", "0\n", why);
  f.file(d + "resource", zero_resources(17), why + "; windows not recorded");
  f.link(d + "driver", ups(b.path) + "bus/pci/drivers/pcieport", why);
  f.link(kBus + bdf, "../../../devices/" + b.path, why);
}

// Whether the driver makes DRM minors for its devices: 1 a card, 2 a card and a
// render node, 0 none. nvidia only with nvidia-drm (recorded as loaded or by a
// /dev/dri card node).
int drm_kind(const Snapshot& s, const std::string& driver) {
  if (driver == "ast" || driver == "mgag200") return 1;
  if (driver == "amdgpu" || driver == "radeon" || driver == "nouveau" || driver == "i915" ||
      driver == "xe")
    return 2;
  if (driver != "nvidia") return 0;
  if (s.files.count("/sys/module/nvidia_drm")) return 2;
  auto it = s.files.lower_bound("/dev/dri/card");
  return it != s.files.end() && it->first.rfind("/dev/dri/card", 0) == 0 ? 2 : 0;
}

// The BDF a class device's recorded `device` link names: the kernel's form,
// relative to its place below the device (../../../0000:18:00.0), or the one
// hand-written snapshots use, through the bus folder
// (../../../bus/pci/devices/0000:c5:00.0, the same device seen from /sys/class/X/NAME).
std::string linked_bdf(const std::string& target) {
  for (const std::string prefix : {"../../../", "../../../bus/pci/devices/"})
    if (target.size() == prefix.size() + 12 && target.compare(0, prefix.size(), prefix) == 0)
      return target.substr(prefix.size());
  return "";
}

// A class device recorded as a folder whose `device` link names a PCI device:
// moved to DEV/CLASS/NAME, the class entry a link to it and its `device` link
// the kernel's (../../../BDF), as the kernel has it (hwloc finds a NIC's OS
// device through that path; rocm-smi reads a card's bus id from the class link).
void fill_class_devices(Filler& f, const std::map<std::string, std::string>& place) {
  const std::string cls = "/sys/class/";
  std::vector<std::pair<std::string, std::string>> moves;  // (class entry, device folder)
  for (auto it = f.s.files.lower_bound(cls); it != f.s.files.end(); ++it) {
    const std::string& p = it->first;
    if (p.compare(0, cls.size(), cls) != 0) break;
    const auto parts = p.substr(cls.size());
    const auto a = parts.find('/'), b = parts.find('/', a == std::string::npos ? a : a + 1);
    if (a == std::string::npos || b == std::string::npos || parts.substr(b) != "/device") continue;
    if (it->second.kind != FileEntry::Kind::link) continue;
    auto dev = place.find(linked_bdf(it->second.target));
    if (dev == place.end()) continue;
    const std::string entry = cls + parts.substr(0, b);
    auto rec = f.s.files.find(entry);
    if (rec != f.s.files.end() && rec->second.kind != FileEntry::Kind::dir) continue;
    moves.emplace_back(entry, dev->second + "/" + parts.substr(0, b));
  }
  for (const auto& [entry, below] : moves) {
    const std::string real = "/sys/devices/" + below;
    if (f.recorded(real)) continue;
    move_tree(f.s, entry, real, f.filled, "moved from " + entry + " to its device's folder");
    auto& device = f.s.files.at(real + "/device");
    device.target = "../../../" + linked_bdf(device.target);
    f.s.files.insert_or_assign(entry, FileEntry::of_link("../../devices/" + below));
    f.filled[entry] = "the kernel's link to the class device in its device's folder";
  }
}

void fill_drm(Filler& f, const std::vector<std::pair<std::string, std::string>>& displays,
              const std::map<std::string, std::string>& place) {
  const std::string cls = "/sys/class/drm";
  auto below = f.s.files.lower_bound(cls);
  if (below != f.s.files.end() && (below->first == cls || below->first.rfind(cls + "/", 0) == 0))
    return;  // recorded: what the host had
  int card = 0, render = 128;
  for (const auto& display : displays) {
    // Named, not a structured binding: the lambda below captures it (clang 14
    // refuses to capture a binding).
    const std::string& bdf = display.first;
    const std::string& driver = display.second;
    int kind = drm_kind(f.s, driver);
    if (kind == 0) continue;
    const std::string& where = place.at(bdf);
    const std::string dev = "/sys/devices/" + where;
    const std::string why =
        "a DRM minor of the recorded " + driver + " device (numbered in bus order)";
    auto minor = [&](const std::string& name, int number) {
      const std::string d = dev + "/drm/" + name;
      f.file(d + "/dev", "226:" + std::to_string(number) + "\n", why);
      f.file(d + "/uevent",
             "MAJOR=226\nMINOR=" + std::to_string(number) + "\nDEVNAME=dri/" + name +
                 "\nDEVTYPE=drm_minor\n",
             why);
      f.link(d + "/device", "../../../" + bdf, why);
      f.link(cls + "/" + name, "../../devices/" + where + "/drm/" + name, why);
    };
    minor("card" + std::to_string(card), card);
    ++card;
    if (kind == 2) {
      minor("renderD" + std::to_string(render), render);
      ++render;
    }
  }
  if (card > 0) f.file(cls + "/version", "drm 1.1.0 20060810\n", "the DRM core's version line");
}

}  // namespace

// sysfs's "0x10de\n" as a number; -1 when not recorded or not hex.
long long hex_value(const std::optional<std::string>& text) {
  if (!text) return -1;
  std::string_view t = *text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.remove_suffix(1);
  if (t.substr(0, 2) == "0x") t.remove_prefix(2);
  long long v = -1;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 16);
  return ec == std::errc() && end == t.data() + t.size() ? v : -1;
}

void fill_pci(Filler& f, const CpuModel& m) {
  Snapshot& s = f.s;
  std::set<std::string> bdfs;
  for (auto it = s.files.lower_bound(kBus); it != s.files.end(); ++it) {
    const std::string& p = it->first;
    if (p.compare(0, kBus.size(), kBus) != 0) break;
    std::string name = p.substr(kBus.size(), p.find('/', kBus.size()) - kBus.size());
    if (is_bdf(name)) bdfs.insert(name);
  }
  // Devices recorded as folders move to the layout's place; those recorded as the
  // kernel's links already are where the host had them (their buses are taken).
  std::vector<std::string> moving;
  std::vector<PciEndpoint> endpoints;
  std::set<int> reserved;
  for (const auto& bdf : bdfs) {
    auto rec = s.files.find(kBus + bdf);
    PciEndpoint e;
    e.domain = int(hex_value(bdf.substr(0, 4)));
    e.bus = int(hex_value(bdf.substr(5, 2)));
    e.dev = int(hex_value(bdf.substr(8, 2)));
    e.fn = bdf[11] - '0';
    if (rec != s.files.end() && rec->second.kind == FileEntry::Kind::link) {
      reserved.insert(e.domain << 8 | e.bus);
      continue;
    }
    e.numa = int(node_of(f.read(kBus + bdf + "/numa_node")));
    moving.push_back(bdf);
    endpoints.push_back(e);
  }
  std::vector<bool> in_topology;
  auto relations = stated_pci_paths(f, moving, in_topology);
  for (std::size_t i = 0; i < endpoints.size(); ++i) endpoints[i].in_topology = in_topology[i];
  const PciLayout layout = lay_out_pci(endpoints, relations, reserved);
  std::map<int, std::vector<int>> node_cpus;
  for (std::size_t i = 0; i < m.cpus.size(); ++i)
    node_cpus[m.cpus[i].node].push_back(static_cast<int>(i));
  // The CPUs of a node (none for a node without CPUs, as the kernel shows it);
  // every CPU where the device has no node.
  auto local = [&](long long node, const std::string& d) {
    if (m.cpus.empty()) return;
    std::vector<int> cpus;
    if (node >= 0)
      cpus = node_cpus[static_cast<int>(node)];
    else
      for (std::size_t i = 0; i < m.cpus.size(); ++i) cpus.push_back(static_cast<int>(i));
    const std::string why =
        node >= 0 ? "the CPUs of the device's NUMA node" : "no NUMA node: every CPU";
    f.file(d + "local_cpulist", cpu_list(cpus) + "\n", why);
    f.file(d + "local_cpus", cpu_mask(cpus, static_cast<int>(m.cpus.size())) + "\n", why);
  };
  std::map<std::string, std::string> place;  // bdf -> its folder below /sys/devices/
  std::map<std::string, std::vector<std::string>> by_driver;  // driver -> bdfs
  std::vector<std::pair<std::string, std::string>> displays;  // (bdf, driver), class 0x03
  const std::string stated = relations.empty() ? "" : " (as the recorded nvidia-smi topo -m says)";
  for (std::size_t i = 0; i < moving.size(); ++i) {
    const std::string& bdf = moving[i];
    const std::string at = kBus + bdf;
    const std::string real = "/sys/devices/" + layout.path[i];
    if (f.recorded(real) || s.files.count(real)) continue;
    move_tree(s, at, real, f.filled, "moved from " + at + " to the kernel's place" + stated);
    s.files.insert_or_assign(at, FileEntry::of_link("../../../devices/" + layout.path[i]));
    f.filled[at] = "a link to the kernel's place of the device";
    place[bdf] = layout.path[i];
    const std::string d = real + "/";
    const std::string up = ups(layout.path[i]);
    // The driver link: recorded relative to wherever the host had it; here relative
    // to the device's place.
    auto drv = s.files.find(d + "driver");
    if (drv != s.files.end() && drv->second.kind == FileEntry::Kind::link) {
      std::string target = drv->second.target;
      std::string name = target.substr(target.rfind('/') + 1);
      if (!name.empty() && name != ".." && name != "." &&
          target.find("bus/pci/drivers/") != std::string::npos) {
        drv->second.target = up + "bus/pci/drivers/" + name;
        f.filled[d + "driver"] = "the recorded driver link, relative to the device's place here";
        by_driver[name].push_back(bdf);
      }
    }
    // The IOMMU group link likewise: the kernel's points at /sys/kernel/iommu_groups/N
    // from the device's place (a text recorded relative to /sys/bus/pci/devices/
    // would lead out of /sys from here, and `hwsim run` would not lay it).
    auto group = s.files.find(d + "iommu_group");
    if (group != s.files.end() && group->second.kind == FileEntry::Kind::link) {
      const std::string& target = group->second.target;
      std::string name = target.substr(target.rfind('/') + 1);
      if (!name.empty() && name != ".." && name != "." &&
          target.find("kernel/iommu_groups/") != std::string::npos) {
        group->second.target = up + "kernel/iommu_groups/" + name;
        f.filled[d + "iommu_group"] =
            "the recorded IOMMU group link, relative to the device's place here";
      }
    }
    // Every kernel device has these; a snapshot may hold only what a probe read
    // (the vendor): lspci gives up on the whole bus when one is missing.
    if (f.read(d + "vendor")) {
      f.file(d + "device", "0x0000\n", "not recorded (the snapshot has only the vendor)");
      f.file(d + "class", "0x000000\n", "not recorded");
    }
    long long vendor = hex_value(f.read(d + "vendor")), device = hex_value(f.read(d + "device"));
    long long cls = hex_value(f.read(d + "class")), rev = hex_value(f.read(d + "revision"));
    long long sv = hex_value(f.read(d + "subsystem_vendor")),
              sd = hex_value(f.read(d + "subsystem_device"));
    if (vendor < 0 || device < 0) continue;
    if (cls >> 16 == 0x03 && drv != s.files.end() && drv->second.kind == FileEntry::Kind::link)
      displays.emplace_back(bdf, drv->second.target.substr(drv->second.target.rfind('/') + 1));
    const std::string from = "the device's recorded vendor, device, class, revision, subsystem";
    f.file(d + "revision", rev < 0 ? "0x00\n" : *f.read(d + "revision"),
           rev < 0 ? "not recorded: 0x00" : from);
    f.file(d + "config", config_space(vendor, device, cls, rev, sv, sd),
           from + (rev < 0 ? " (revision not recorded: 0)" : ""));
    if (!f.read(d + "numa_node")) f.file(d + "numa_node", "-1\n", "not recorded: no NUMA affinity");
    local(endpoints[i].numa, d);
    f.file(d + "enable", "1\n", "a bound device is enabled");
    f.file(d + "irq", "0\n", "not recorded");
    f.file(d + "resource", zero_resources(13), "regions not recorded: none");
  }
  for (const auto& [e, why] : layout.notes)
    if (place.count(moving[e])) f.filled["/sys/devices/" + place[moving[e]]] = why;
  const long long cpu_vendor = root_port_vendor(f);
  for (const auto& b : layout.bridges) {
    const std::string bdf = pci_bdf(b.domain, b.bus, b.dev, b.fn);
    if (bdfs.count(bdf) || f.recorded("/sys/devices/" + b.path)) continue;
    fill_bridge(f, b, cpu_vendor, stated);
    local(b.numa, "/sys/devices/" + b.path + "/");
    by_driver["pcieport"].push_back(bdf);
    place[bdf] = b.path;
  }
  for (const auto& [drv, devices] : by_driver) {
    const std::string dir = "/sys/bus/pci/drivers/" + drv + "/";
    for (const auto& bdf : devices)
      f.link(dir + bdf, "../../../../devices/" + place[bdf],
             drv == "pcieport" ? "the PCIe port driver binds every root and switch port"
                               : "the devices whose recorded driver link names " + drv);
  }
  fill_class_devices(f, place);
  fill_drm(f, displays, place);
}

void fill_dmi(Filler& f) {
  Snapshot& s = f.s;
  const std::string at = "/sys/class/dmi/id";
  auto rec = s.files.find(at);
  if (rec != s.files.end() && rec->second.kind == FileEntry::Kind::link) return;
  auto below = s.files.lower_bound(at + "/");
  if (below == s.files.end() || below->first.compare(0, at.size() + 1, at + "/") != 0) return;
  const std::string real = "/sys/devices/virtual/dmi/id";
  if (s.files.count(real)) return;
  move_tree(s, at, real, f.filled, "moved from /sys/class/dmi/id to the kernel's place");
  s.files.insert_or_assign(at, FileEntry::of_link("../../devices/virtual/dmi/id"));
  f.filled[at] = "the kernel's link to /sys/devices/virtual/dmi/id";
}

}  // namespace hwaccel::sim
