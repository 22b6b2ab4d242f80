#include "src/system/infiniband.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>

#include "src/probe/pci_bus.h"
#include "src/system/pcie_link.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {

namespace {

bool all_upper_or_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

std::optional<double> parse_rate_number(std::string_view text) {
  // "2.5", "100", "13.5": digits, at most one '.' with one digit after it.
  auto dot = text.find('.');
  auto whole = parse_u64(text.substr(0, dot));
  if (!whole || *whole > 100000) return std::nullopt;
  double v = double(*whole);
  if (dot != std::string_view::npos) {
    auto frac = text.substr(dot + 1);
    if (frac.size() != 1 || frac[0] < '0' || frac[0] > '9') return std::nullopt;
    v += (frac[0] - '0') / 10.0;
  }
  return v;
}

void warn(std::vector<Warning>& w, const std::string& path, const Error& e) {
  w.push_back({"system", path + ": " + e.errno_name()});
}

}  // namespace

std::string parse_ib_port_state(std::string_view text) {
  text = trim(text);
  auto colon = text.find(':');
  if (colon == std::string_view::npos) return "";
  if (!parse_u64(trim(text.substr(0, colon)))) return "";
  auto name = trim(text.substr(colon + 1));
  return all_upper_or_digits(name) ? std::string(name) : "";
}

std::optional<IbRate> parse_ib_rate(std::string_view text) {
  text = trim(text);
  auto space = text.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  auto number = parse_rate_number(text.substr(0, space));
  if (!number) return std::nullopt;
  auto rest = trim(text.substr(space + 1));
  if (rest.rfind("Gb/sec", 0) != 0) return std::nullopt;
  rest = trim(rest.substr(6));
  IbRate r;
  r.gbits_per_s = *number;
  if (!rest.empty()) {
    if (rest.front() != '(' || rest.back() != ')') return std::nullopt;
    auto inner = trim(rest.substr(1, rest.size() - 2));
    auto sp = inner.find(' ');
    if (sp == std::string_view::npos) return std::nullopt;
    r.width = std::string(trim(inner.substr(0, sp)));
    r.speed = std::string(trim(inner.substr(sp + 1)));
    if (!all_upper_or_digits(r.width) || !all_upper_or_digits(r.speed)) return std::nullopt;
  }
  const bool eight_ten = r.speed == "SDR" || r.speed == "DDR" || r.speed == "QDR";
  r.gbytes_per_s = std::round(r.gbits_per_s / 8.0 * (eight_ten ? 0.8 : 1.0) * 100.0) / 100.0;
  return r;
}

std::string pci_address_from_link(std::string_view target) {
  while (!target.empty() && target.back() == '/') target.remove_suffix(1);
  auto slash = target.rfind('/');
  auto name = slash == std::string_view::npos ? target : target.substr(slash + 1);
  // dddd:bb:dd.f
  if (name.size() != 12 || name[4] != ':' || name[7] != ':' || name[10] != '.') return "";
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (i == 4 || i == 7 || i == 10) continue;
    if (!std::isxdigit(static_cast<unsigned char>(name[i]))) return "";
  }
  return to_lower(name);
}

std::vector<NetworkPort> scan_infiniband(Host& host, std::vector<Warning>& warnings) {
  std::vector<NetworkPort> ports;
  auto devices = host.list(kInfinibandDir);
  if (!devices) {
    if (devices.error().code != ENOENT) warn(warnings, kInfinibandDir, devices.error());
    return ports;
  }
  for (const auto& dev : *devices) {
    const std::string dir = std::string(kInfinibandDir) + "/" + dev;
    std::string bus_id;
    if (auto target = host.readlink(dir + "/device")) bus_id = pci_address_from_link(*target);
    std::optional<int> numa;
    // Read under /sys/bus/pci/devices, not through the device link: a recording
    // keeps the link, and replay would follow it somewhere else.
    if (!bus_id.empty())
      if (auto n = host.read(std::string(kPciDevicesDir) + "/" + bus_id + "/numa_node"))
        numa = parse_sysfs_numa_node(*n);
    std::optional<PcieLink> pcie;
    if (!bus_id.empty()) pcie = read_pcie_link(host, bus_id, warnings);

    auto port_names = host.list(dir + "/ports");
    if (!port_names) {
      warn(warnings, dir + "/ports", port_names.error());
      continue;
    }
    for (const auto& name : *port_names) {
      auto number = parse_u64(name);
      if (!number || *number > 255) continue;
      const std::string pdir = dir + "/ports/" + name;
      NetworkPort p;
      p.device = dev;
      p.port = int(*number);
      p.pci_bus_id = bus_id;
      p.numa_node = numa;
      p.pcie = pcie;
      if (auto s = host.read(pdir + "/state")) {
        p.state = parse_ib_port_state(*s);
        if (p.state.empty())
          warnings.push_back(
              {"system", pdir + "/state: unexpected \"" + printable_line(*s, 40) + "\""});
      } else {
        warn(warnings, pdir + "/state", s.error());
      }
      if (auto l = host.read(pdir + "/link_layer")) {
        p.link_layer = printable_line(*l, 40);
      } else if (l.error().code != ENOENT) {
        warn(warnings, pdir + "/link_layer", l.error());
      }
      if (auto r = host.read(pdir + "/rate")) {
        p.rate = printable_line(*r, 60);
        if (auto rate = parse_ib_rate(*r)) {
          p.gbits_per_s = rate->gbits_per_s;
          p.gbytes_per_s = rate->gbytes_per_s;
        } else {
          warnings.push_back({"system", pdir + "/rate: unexpected \"" + p.rate +
                                            "\", expected like \"200 Gb/sec (4X HDR)\""});
        }
      } else {
        warn(warnings, pdir + "/rate", r.error());
      }
      ports.push_back(std::move(p));
    }
  }
  std::sort(ports.begin(), ports.end(), [](const NetworkPort& a, const NetworkPort& b) {
    return a.device != b.device ? natural_less(a.device, b.device) : a.port < b.port;
  });
  return ports;
}

}  // namespace hwaccel
