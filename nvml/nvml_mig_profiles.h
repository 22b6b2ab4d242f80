// NVML's side of the MIG profile tables (src/catalog/mig_profiles.h holds the tables, one
// source with hwsim's nvidia-smi -lgip): the placement of a GPU instance id, what
// still fits, and the compute instance profile indices.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "src/catalog/mig_profiles.h"

namespace hwaccel::nvml {

using mig::all_mig_tables;
using mig::gi_profile_by_id;
using mig::gi_profile_by_index;
using mig::gi_profile_by_name;
using mig::GiProfile;
using mig::mig_table_for;
using mig::MigTable;

struct Placement {
  unsigned start = 0, size = 0;
};

// Where a GPU instance of `profile` with instance id `id` sits: the driver numbers
// the slots of its partition tree (0: the whole GPU, 1-2: halves, 3-6: quarters,
// 7-14: eighths), which the real placements in -lgi confirm (an A30's 4 memory
// slices too: GI 3 to 6 at 0:1 to 3:1, 2 at 2:2, two public A30 -lgi). nullopt when
// the id is not a slot the profile can take.
std::optional<Placement> placement_of_instance(const MigTable& table, const GiProfile& profile,
                                               unsigned id);

// How many more instances of `profile` fit beside `taken` (first fit over its
// placements, at most its instance count less `existing` of its own).
unsigned remaining_capacity(const GiProfile& profile, const std::vector<Placement>& taken,
                            unsigned existing);

// NVML_COMPUTE_INSTANCE_PROFILE_* of a compute instance of `slices` slices.
std::optional<unsigned> ci_profile_index_of(unsigned slices);

inline constexpr unsigned kGpuInstanceProfileCount = 17;     // NVML_GPU_INSTANCE_PROFILE_COUNT
inline constexpr unsigned kComputeInstanceProfileCount = 8;  // NVML_COMPUTE_INSTANCE_PROFILE_COUNT

}  // namespace hwaccel::nvml
