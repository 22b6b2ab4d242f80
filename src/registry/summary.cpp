#include "src/registry/summary.h"

#include <set>

#include "src/registry/identity.h"
#include "src/registry/selection.h"

namespace hwaccel {

namespace {

// The entries that stand for a physical accelerator: not the CPU, not a
// partition (its parent stands for it), ready or split into partitions.
template <typename F>
void for_each_physical_accelerator(const Detection& d, bool ready_only, F f) {
  std::set<std::string> seen;
  for (const auto& e : d.entries) {
    if (e.type == DeviceType::cpu || e.partition) continue;
    if (ready_only && e.status != EntryStatus::ready) continue;
    if (!seen.insert(e.physical_id.empty() ? entry_label(e) : e.physical_id).second) continue;
    f(e);
  }
}

}  // namespace

std::uint64_t accelerator_memory_bytes(const Detection& d) {
  std::uint64_t sum = 0;
  for_each_physical_accelerator(d, true, [&](const Entry& e) {
    if (e.memory.total_bytes) sum += *e.memory.total_bytes;
  });
  return sum;
}

bool has_ready_accelerator(const Detection& d) {
  return count_physical_accelerators(d.entries, true) > 0;
}

Summary summarize(const Detection& d) {
  Summary s;
  for (const auto& b : d.backends) {
    FamilySummary f;
    f.name = b.name;
    f.ready = b.ready;
    if (b.reason) f.reason = std::string(to_string(b.reason->code));
    for (const auto& e : d.entries) {
      if (e.backend != b.name) continue;
      ++f.devices;
      if (e.status == EntryStatus::ready) ++f.ready_devices;
    }
    s.families.push_back(f);
  }
  for (const auto& e : d.entries)
    if (e.status == EntryStatus::ready) ++s.types[std::string(to_string(e.type))];
  Selection best = select_default(d);
  s.best = best.entry;
  s.best_reason = best.reason;
  s.accelerators_ready = count_physical_accelerators(d.entries, true);
  for (const auto& e : d.entries)
    if (e.type == DeviceType::cpu && e.memory.total_bytes) {
      s.host_memory_bytes = *e.memory.total_bytes;
      break;
    }
  s.accelerator_memory_bytes = accelerator_memory_bytes(d);
  s.total_memory_bytes = s.host_memory_bytes;
  for_each_physical_accelerator(d, true, [&](const Entry& e) {
    if (e.memory.kind == MemoryKind::discrete && e.memory.total_bytes)
      s.total_memory_bytes += *e.memory.total_bytes;
  });
  s.warnings = d.warnings.size();
  return s;
}

}  // namespace hwaccel
