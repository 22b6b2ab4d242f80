#include "nvml/nvml_mig_profiles.h"

#include <algorithm>
#include <string>

namespace hwaccel::nvml {
namespace {

// NVML_GPU_INSTANCE_PROFILE_*: 1_SLICE 0, 2_SLICE 1, 3_SLICE 2, 4_SLICE 3, 7_SLICE 4,
// 1_SLICE_REV1 7 (the "+me" slice with the media engines), 1_SLICE_REV2 9 (a
// one-slice instance with two memory slices).
const std::vector<unsigned> kSevenOnes = {0, 1, 2, 3, 4, 5, 6};

// H100 SXM5 80GB (132 SMs, no NVENC): a public `nvidia-smi mig -lgip` (every row); the
// 3g.40gb, 2g.20gb and 1g.10gb rows agree with the recorded -q of fixtures/hosts/
// h100-mig.yaml (40448, 20096, 9984 MiB; 60, 32, 16 SMs; 3/2/1 CE, DEC, JPG).
const MigTable kH100_80 = {"H100 80GB",
                           8,
                           {
                               {0, 19, "1g.10gb", 1, 7, 16, 1, 1, 0, 1, 0, 9984, 1, kSevenOnes},
                               {7, 20, "1g.10gb+me", 1, 1, 16, 1, 1, 0, 1, 1, 9984, 1, kSevenOnes},
                               {9, 15, "1g.20gb", 1, 4, 26, 1, 1, 0, 1, 0, 20096, 2, {0, 2, 4, 6}},
                               {1, 14, "2g.20gb", 2, 3, 32, 2, 2, 0, 2, 0, 20096, 2, {0, 2, 4}},
                               {2, 9, "3g.40gb", 3, 2, 60, 3, 3, 0, 3, 0, 40448, 4, {0, 4}},
                               {3, 5, "4g.40gb", 4, 1, 64, 4, 4, 0, 4, 0, 40448, 4, {0}},
                               {4, 0, "7g.80gb", 7, 1, 132, 8, 7, 0, 7, 1, 81152, 8, {0}},
                           }};

// A100-SXM4-40GB (108 SMs, no NVENC): a public `nvidia-smi mig -lgip` on an
// A100-SXM4-40GB (memory 4.75 / 9.75 / 19.62 / 39.38 GiB, the same table as
// sim/emulate/nvidia_smi_mig.cpp).
const MigTable kA100_40 = {"A100 40GB",
                           8,
                           {
                               {0, 19, "1g.5gb", 1, 7, 14, 1, 0, 0, 0, 0, 4864, 1, kSevenOnes},
                               {7, 20, "1g.5gb+me", 1, 1, 14, 1, 1, 0, 1, 1, 4864, 1, kSevenOnes},
                               {9, 15, "1g.10gb", 1, 4, 14, 1, 1, 0, 0, 0, 9984, 2, {0, 2, 4, 6}},
                               {1, 14, "2g.10gb", 2, 3, 28, 2, 1, 0, 0, 0, 9984, 2, {0, 2, 4}},
                               {2, 9, "3g.20gb", 3, 2, 42, 3, 2, 0, 0, 0, 20096, 4, {0, 4}},
                               {3, 5, "4g.20gb", 4, 1, 56, 4, 2, 0, 0, 0, 20096, 4, {0}},
                               {4, 0, "7g.40gb", 7, 1, 98, 7, 5, 0, 1, 1, 40320, 8, {0}},
                           }};

bool has(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

}  // namespace

const MigTable* mig_table_for(std::string_view name, std::optional<std::uint64_t> total_bytes) {
  const std::uint64_t mib = total_bytes.value_or(0) >> 20;
  // H100 80GB HBM3 / H100 SXM5 80GB: 81559 MiB; the 94 GB NVL and the H100 PCIe
  // differ in SMs or memory and have tables of their own (not here).
  if (has(name, "H100") && (has(name, "80GB HBM3") || has(name, "SXM5 80GB")) &&
      (mib == 0 || (mib > 80000 && mib < 82000)))
    return &kH100_80;
  if (has(name, "A100") && (has(name, "SXM4-40GB") || has(name, "40GB")) && !has(name, "PCIe") &&
      (mib == 0 || (mib > 39000 && mib < 41000)))
    return &kA100_40;
  return nullptr;
}

const GiProfile* gi_profile_by_index(const MigTable& table, unsigned index) {
  for (const auto& p : table.profiles)
    if (p.index == index) return &p;
  return nullptr;
}

const GiProfile* gi_profile_by_id(const MigTable& table, unsigned id) {
  for (const auto& p : table.profiles)
    if (p.id == id) return &p;
  return nullptr;
}

const GiProfile* gi_profile_by_name(const MigTable& table, std::string_view name) {
  if (name.rfind("MIG ", 0) == 0) name.remove_prefix(4);
  // "1c.3g.40gb": a compute instance of one slice in a 3g.40gb GPU instance.
  if (auto dot = name.find('.'); dot != std::string_view::npos && dot > 0 && name[dot - 1] == 'c')
    name.remove_prefix(dot + 1);
  for (const auto& p : table.profiles)
    if (name == p.name) return &p;
  return nullptr;
}

std::optional<Placement> placement_of_instance(const MigTable& table, const GiProfile& profile,
                                               unsigned id) {
  if (table.memory_slices != 8) return std::nullopt;
  Placement at;
  if (id == 0)
    at = {0, 8};
  else if (id <= 2)
    at = {(id - 1) * 4, 4};
  else if (id <= 6)
    at = {(id - 3) * 2, 2};
  else if (id <= 14)
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
