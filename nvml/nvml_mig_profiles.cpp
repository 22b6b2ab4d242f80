#include "nvml/nvml_mig_profiles.h"

#include <algorithm>

namespace hwaccel::nvml {

std::optional<Placement> placement_of_instance(const MigTable& table, const GiProfile& profile,
                                               unsigned id) {
  const unsigned n = table.memory_slices;
  if (n != 8 && n != 4) return std::nullopt;
  Placement at;
  if (id == 0)
    at = {0, n};
  else if (id <= 2)
    at = {(id - 1) * n / 2, n / 2};
  else if (id <= 6)
    at = {(id - 3) * n / 4, n / 4};
  else if (id <= 14 && n == 8)
    at = {id - 7, 1};
  else
    return std::nullopt;
  if (at.size != profile.placement_size) return std::nullopt;
  for (unsigned start : profile.starts)
    if (start == at.start) return at;
  return std::nullopt;
}

unsigned remaining_capacity(const GiProfile& profile, const std::vector<Placement>& taken,
                            unsigned existing) {
  if (existing >= profile.instances) return 0;
  std::vector<Placement> used = taken;
  unsigned fits = 0;
  for (unsigned start : profile.starts) {
    const unsigned end = start + profile.placement_size;
    bool free = true;
    for (const auto& u : used)
      if (start < u.start + u.size && u.start < end) free = false;
    if (!free) continue;
    used.push_back({start, profile.placement_size});
    ++fits;
  }
  return std::min(fits, profile.instances - existing);
}

std::optional<unsigned> ci_profile_index_of(unsigned slices) {
  switch (slices) {
    case 1:
      return 0u;
    case 2:
      return 1u;
    case 3:
      return 2u;
    case 4:
      return 3u;
    case 7:
      return 4u;
    case 8:
      return 5u;
    case 6:
      return 6u;
    default:
      return std::nullopt;
  }
}

}  // namespace hwaccel::nvml
