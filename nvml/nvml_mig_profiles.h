// MIG GPU instance profiles per GPU family, as NVIDIA's MIG User Guide and
// `nvidia-smi mig -lgip` / `-lgipp` list them (profile ids, instance counts,
// memory, SMs, engines, placements), and the placement of a GPU instance id.
// The snapshot-backed libnvidia-ml answers the MIG profile calls from these.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace hwaccel::nvml {

struct GiProfile {
  unsigned index;    // NVML_GPU_INSTANCE_PROFILE_* (what GetGpuInstanceProfileInfo takes)
  unsigned id;       // the profile id -lgip prints (what GetGpuInstances etc. take)
  const char* name;  // "1g.10gb", "1g.10gb+me"
  unsigned slices;   // compute slices
  unsigned instances;
  unsigned sms, copy_engines, decoders, encoders, jpegs, ofas;
  std::uint64_t memory_mib;
  unsigned placement_size;       // memory slices one instance takes
  std::vector<unsigned> starts;  // its possible placements' starts
};

struct MigTable {
  const char* family;      // "H100 80GB"
  unsigned memory_slices;  // 8 on A100/H100
  std::vector<GiProfile> profiles;
};

struct Placement {
  unsigned start = 0, size = 0;
};

// The table of a GPU by its name and framebuffer size; nullptr for a GPU whose
// profiles are not in the tables (NVML then answers NOT_SUPPORTED).
const MigTable* mig_table_for(std::string_view gpu_name, std::optional<std::uint64_t> total_bytes);

const GiProfile* gi_profile_by_index(const MigTable& table, unsigned index);
const GiProfile* gi_profile_by_id(const MigTable& table, unsigned id);
// "3g.40gb" or "MIG 3g.40gb"; a compute instance's "1c.3g.40gb" names its GPU instance's.
const GiProfile* gi_profile_by_name(const MigTable& table, std::string_view name);

// Where a GPU instance of `profile` with instance id `id` sits: the driver numbers
// the slots of its partition tree (0: the whole GPU, 1-2: halves, 3-6: quarters,
// 7-14: eighths), which the real placements in -lgi confirm. nullopt when the id
// is not a slot the profile can take.
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
