// A shard's partial result (hwsim-fleet-part/1): which fleet it belongs to
// (everything that decides its hosts), which shard it is, and its report
// (sim/fleet_json.h). Parts are read back as untrusted input: bounded,
// strictly typed, every error naming its place, and a merge refuses parts of
// different fleets, a shard twice and a missing shard.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/fleet.h"
#include "sim/fleet_shard.h"

namespace hwaccel::sim {

inline constexpr const char* kFleetPartSchema = "hwsim-fleet-part/1";
// A part holds a few dozen rows; far more is not one of ours.
inline constexpr std::size_t kMaxFleetPartBytes = std::size_t{16} << 20;
// `hwsim fleet --count`'s largest.
inline constexpr std::uint64_t kMaxFleetHosts = 100'000'000;

// What decides the hosts of a drawn fleet; parts merge only when all agree.
struct FleetIdentity {
  std::string hwsim;        // the version that drew them (detection may change between)
  std::string spec;         // "preset:dgx-h100" or the spec file's name, for messages
  std::string host_sha256;  // of the synthesised host (write_snapshot): the spec's content
  std::uint64_t seed = 1;
  std::uint64_t count = 0;
  double fault_rate = 0;
  double busy_rate = 0;
  std::string verdict;  // the verdict column's title ("" without --model)
};

struct FleetPart {
  FleetIdentity fleet;
  Shard shard;
  FleetAggregate aggregate;  // of hosts shard_range(fleet.count, shard)
};

// The document: JSON, sorted keys, two-space indent, a trailing newline.
std::string part_to_text(const FleetPart& part);

struct PartRead {
  std::optional<FleetPart> part;
  std::string error;  // "LINE:COLUMN: ..." for broken JSON, else "PLACE: expected ..."
};
PartRead part_from_text(std::string_view text);

struct NamedPart {
  std::string name;  // the file, for messages
  FleetPart part;
};

struct MergeResult {
  std::optional<FleetAggregate> aggregate;
  std::string verdict_title;
  std::string error;  // names the part(s) at fault
};

// All N shards of one fleet, in any order, each once.
MergeResult merge_parts(const std::vector<NamedPart>& parts);

}  // namespace hwaccel::sim
