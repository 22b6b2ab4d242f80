// A fleet drawn from a spec split across machines: shard K of N draws the
// hosts with indices [K*count/N, (K+1)*count/N), the same hosts (same seed,
// same index, same faults) a single run draws there, so the shards' aggregates
// sum to the single run's. K is 0-based, as Kubernetes' JOB_COMPLETION_INDEX
// and Slurm's SLURM_ARRAY_TASK_ID of an array declared --array=0-(N-1) are.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/fleet.h"

namespace hwaccel::sim {

struct Shard {
  std::uint64_t index = 0;  // K, 0 <= K < N
  std::uint64_t count = 1;  // N
};

// More shards than anyone runs; keeps count * N far inside 64 bits.
inline constexpr std::uint64_t kMaxShards = 1'000'000;

// "K/N" (decimal, 0 <= K < N <= kMaxShards); nullopt and `error` set otherwise.
std::optional<Shard> parse_shard(std::string_view text, std::string& error);

// Host indices [first, end).
struct HostRange {
  std::uint64_t first = 0;
  std::uint64_t end = 0;
  std::uint64_t size() const { return end - first; }
};

// Contiguous and balanced (sizes differ by at most one); with more shards than
// hosts some are empty. `hosts` at most 2^40.
HostRange shard_range(std::uint64_t hosts, const Shard& shard);

// Host `index` of the fleet drawn from `base` with `seed`: its faults applied,
// detected and added to `aggregate`. Returns the first fault that did not
// apply (a bug in draw_faults), else empty.
std::string add_drawn_host(FleetAggregate& aggregate, const Snapshot& base, std::uint64_t seed,
                           std::uint64_t index, const FleetDraw& draw, const Reserve& reserve,
                           const HostVerdict& verdict = {});

}  // namespace hwaccel::sim
