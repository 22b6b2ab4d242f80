#include "src/export/physical_devices.h"

#include <map>
#include <set>

namespace hwaccel {

namespace {

// Generic APIs see devices a vendor's own API also sees; the vendor's view
// carries the driver, the UUID and the device node.
int api_rank(const Entry& e) {
  return e.backend == "vulkan" ? 1 : 0;
}

}  // namespace

std::string_view to_string(MigStrategy s) {
  switch (s) {
    case MigStrategy::none:
      return "none";
    case MigStrategy::single:
      return "single";
    case MigStrategy::mixed:
      return "mixed";
  }
  return "none";
}

std::optional<MigStrategy> parse_mig_strategy(std::string_view text) {
  for (auto s : {MigStrategy::none, MigStrategy::single, MigStrategy::mixed})
    if (text == to_string(s)) return s;
  return std::nullopt;
}

bool PhysicalDevice::ready() const {
  for (const Entry* v : views)
    if (v->status == EntryStatus::ready) return true;
  return false;
}

std::vector<PhysicalDevice> physical_devices(const Detection& d) {
  std::vector<PhysicalDevice> out;
  std::map<std::string, std::size_t> by_id;
  for (const auto& e : d.entries) {
    if (e.type == DeviceType::cpu || e.partition) continue;
    auto [it, added] = by_id.try_emplace(e.physical_id, out.size());
    if (added) out.emplace_back();
    PhysicalDevice& p = out[it->second];
    p.views.push_back(&e);
    // The vendor's view, and among equals a ready one.
    if (!p.entry || api_rank(e) < api_rank(*p.entry) ||
        (api_rank(e) == api_rank(*p.entry) && p.entry->status != EntryStatus::ready &&
         e.status == EntryStatus::ready))
      p.entry = &e;
    p.integrated |= e.memory.kind == MemoryKind::unified;
  }
  for (const auto& e : d.entries) {
    if (!e.partition) continue;
    if (auto it = by_id.find(e.partition->parent_physical_id); it != by_id.end())
      out[it->second].slices.push_back(&e);
  }
  return out;
}

bool single_mig_profile(const std::vector<PhysicalDevice>& devices) {
  std::set<std::string> profiles;
  for (const auto& p : devices)
    for (const Entry* s : p.slices) profiles.insert(s->partition->profile);
  return profiles.size() <= 1;
}

std::vector<Allocatable> allocatable_devices(const std::vector<PhysicalDevice>& devices,
                                             MigStrategy strategy) {
  std::vector<Allocatable> out;
  for (const auto& p : devices) {
    if (strategy == MigStrategy::none || p.slices.empty()) {
      out.push_back({p.entry, &p, "gpu"});
      continue;
    }
    for (const Entry* s : p.slices)
      out.push_back(
          {s, &p, strategy == MigStrategy::single ? "gpu" : "mig-" + s->partition->profile});
  }
  return out;
}

}  // namespace hwaccel
