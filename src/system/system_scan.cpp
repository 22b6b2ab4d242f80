#include "src/system/system_scan.h"

#include <cerrno>
#include <map>

#include "src/probe/pci_bus.h"
#include "src/system/block_devices.h"
#include "src/system/infiniband.h"
#include "src/system/pcie_link.h"
#include "src/system/runtime_env.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t i0 = i, j0 = j;
      while (i0 < a.size() && a[i0] == '0') ++i0;
      while (j0 < b.size() && b[j0] == '0') ++j0;
      std::size_t i1 = i0, j1 = j0;
      while (i1 < a.size() && digit(a[i1])) ++i1;
      while (j1 < b.size() && digit(b[j1])) ++j1;
      if (i1 - i0 != j1 - j0) return i1 - i0 < j1 - j0;
      int c = a.compare(i0, i1 - i0, b, j0, j1 - j0);
      if (c != 0) return c < 0;
      i = i1;
      j = j1;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  if ((a.size() - i) != (b.size() - j)) return a.size() - i < b.size() - j;
  return a < b;  // equal up to leading zeros: any fixed order
}

SystemInfo scan_system(Host& host) {
  SystemInfo s;
  s.environment = detect_runtime_environment(host, s.warnings);
  s.resources = scan_host_resources(host, s.warnings);
  s.ports = scan_infiniband(host, s.warnings);
  s.storage = scan_block_devices(host, s.warnings);
  return s;
}

ScannedResources scan_resources(Host& host) {
  ScannedResources scanned;
  scanned.resources = scan_host_resources(host, scanned.warnings);
  return scanned;
}

SystemInfo scan_system(Host& host, ScannedResources scanned) {
  SystemInfo s;
  s.environment = detect_runtime_environment(host, s.warnings);
  s.resources = std::move(scanned.resources);
  for (auto& w : scanned.warnings) s.warnings.push_back(std::move(w));
  s.ports = scan_infiniband(host, s.warnings);
  s.storage = scan_block_devices(host, s.warnings);
  return s;
}

void attach_pci_details(Host& host, std::vector<Entry>& entries, std::vector<Warning>& warnings) {
  struct Known {
    std::optional<PcieLink> link;
    std::optional<int> numa;
  };
  std::map<std::string, Known> seen;
  for (auto& e : entries) {
    if (e.pci_bus_id.empty()) continue;
    auto it = seen.find(e.pci_bus_id);
    if (it == seen.end()) {
      Known k;
      k.link = read_pcie_link(host, e.pci_bus_id, warnings);
      const std::string path = std::string(kPciDevicesDir) + "/" + e.pci_bus_id + "/numa_node";
      if (auto n = host.read(path)) {
        k.numa = parse_sysfs_numa_node(*n);
        // "-1" is a valid "no affinity"; anything else unparsable is worth a word.
        if (!k.numa && trim(*n) != "-1")
          warnings.push_back({"system", path + ": unexpected \"" + printable_line(*n, 20) +
                                            "\", NUMA node not known"});
      }
      it = seen.emplace(e.pci_bus_id, std::move(k)).first;
    }
    e.pcie = it->second.link;
    if (!e.numa_node && it->second.numa) e.numa_node = it->second.numa;
  }
}

}  // namespace hwaccel
