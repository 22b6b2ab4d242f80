#include "src/registry/cross_api_identity.h"

#include <map>
#include <string>

#include "src/vocabulary/text_util.h"

namespace hwaccel {

void join_entries_by_uuid(std::vector<Entry>& entries) {
  // A physical_id on the bus is the one to share; the first backend to report wins.
  std::map<std::string, std::string> placed;  // lower-case uuid -> physical_id
  for (const auto& e : entries)
    if (!e.uuid.empty() && !e.partition && e.physical_id.rfind("pci:", 0) == 0)
      placed.emplace(to_lower(e.uuid), e.physical_id);
  for (auto& e : entries) {
    if (e.uuid.empty() || e.partition) continue;
    auto at = placed.find(to_lower(e.uuid));
    if (at == placed.end() || at->second == e.physical_id) continue;
    e.physical_id = at->second;
    if (e.pci_bus_id.empty()) e.pci_bus_id = at->second.substr(4);
  }
}

}  // namespace hwaccel
