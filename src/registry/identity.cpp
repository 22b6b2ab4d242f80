#include "src/registry/identity.h"

#include <cctype>
#include <map>
#include <set>
#include <tuple>

namespace hwaccel {

std::string normalise_device_name(std::string_view name) {
  std::string out;
  bool dash = false;
  for (unsigned char c : name) {
    if (std::isalnum(c)) {
      if (dash && !out.empty()) out += '-';
      out += char(std::tolower(c));
      dash = false;
    } else {
      dash = true;
    }
  }
  return out;
}

void assign_physical_ids(std::vector<Entry>& entries) {
  std::map<std::tuple<std::string, std::string, std::string>, int> ordinals;
  for (auto& e : entries) {
    if (!e.physical_id.empty()) continue;
    if (!e.pci_bus_id.empty()) {
      e.physical_id = "pci:" + e.pci_bus_id;
      continue;
    }
    std::string vendor = normalise_device_name(e.vendor);
    std::string name = normalise_device_name(e.name);
    int ordinal = ordinals[{e.api, vendor, name}]++;
    e.physical_id = "dev:" + vendor + "/" + name + "/" + std::to_string(ordinal);
  }
}

std::size_t count_physical_accelerators(const std::vector<Entry>& entries, bool ready_only) {
  std::set<std::string> ids;
  for (const auto& e : entries) {
    if (e.type == DeviceType::cpu) continue;
    if (ready_only && e.status != EntryStatus::ready) continue;
    ids.insert(e.partition ? e.partition->parent_physical_id : e.physical_id);
  }
  return ids.size();
}

}  // namespace hwaccel
