// The MIG GPU instance profile tables of NVIDIA's MIG GPUs: one source for the
// snapshot-backed libnvidia-ml (nvml/, the MIG profile calls) and for hwsim's
// `nvidia-smi mig -lgip` emulator (sim/emulate/nvidia_smi_mig.cpp). Which public
// outputs each table comes from is written beside it (mig_profiles.cpp).
// Standard library only: it reads nothing and depends on no other hwaccel code.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel::mig {

struct GiProfile {
  unsigned index;    // NVML_GPU_INSTANCE_PROFILE_* (what GetGpuInstanceProfileInfo takes)
  unsigned id;       // the profile id -lgip prints (what GetGpuInstances etc. take)
  const char* name;  // "1g.10gb", "1g.10gb+me"
  unsigned slices;   // compute slices
  unsigned instances;
  unsigned sms, copy_engines, decoders, encoders, jpegs, ofas;
  std::uint64_t memory_mib;      // -lgip prints it in GiB with two decimals (gib_text)
  unsigned placement_size;       // memory slices one instance takes
  std::vector<unsigned> starts;  // its possible placements' starts
};

struct MigTable {
  const char* family;      // "H100 80GB"
  unsigned memory_slices;  // 8 on A100/H100, 4 on A30 (also its compute slices)
  std::vector<GiProfile> profiles;
};

// The table of a GPU by its name (as nvidia-smi and NVML give it) and framebuffer
// size (nullopt: not known, the name decides); nullptr for a GPU whose profiles
// are not in the tables (NVML then answers NOT_SUPPORTED, -lgip says so).
const MigTable* mig_table_for(std::string_view gpu_name, std::optional<std::uint64_t> total_bytes);

// The table to size a GPU's MIG devices by: mig_table_for's, else a partial
// table (only the rows a public -lgip shows: B200, GB200, GH200 144G; the PCIe
// A100s without their 7g). A profile in neither stays "estimated from the profile
// name" (the probe).
const MigTable* mig_sizes_table_for(std::string_view gpu_name,
                                    std::optional<std::uint64_t> total_bytes);

// Every complete table, for the tests.
const std::vector<const MigTable*>& all_mig_tables();
// The partial ones (mig_sizes_table_for only).
const std::vector<const MigTable*>& partial_mig_tables();

const GiProfile* gi_profile_by_index(const MigTable& table, unsigned index);
const GiProfile* gi_profile_by_id(const MigTable& table, unsigned id);
// "3g.40gb" or "MIG 3g.40gb"; a compute instance's "1c.3g.40gb" names its GPU instance's.
const GiProfile* gi_profile_by_name(const MigTable& table, std::string_view name);

// MiB as -lgip prints GiB: two decimals, a tie rounded to even (20096 -> "19.62",
// 40320 -> "39.38").
std::string gib_text(std::uint64_t mib);

}  // namespace hwaccel::mig
