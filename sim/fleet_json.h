// A fleet's aggregate as JSON (`hwsim fleet --json`, hwsim-fleet/1), and back:
// the report a partial result (sim/fleet_part.h) carries is this same object,
// so a merge prints what a single run prints, byte for byte.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/fleet.h"

namespace hwaccel::sim {

inline constexpr const char* kFleetSchema = "hwsim-fleet/1";

// Every count table, keyed by row name ({} when empty); "verdict" is null
// without a verdict column (no --model), else {"title", "hosts"}.
nlohmann::json fleet_to_json(const FleetAggregate& aggregate, const std::string& verdict_title);

// The inverse, for untrusted input. `place` names the object in messages
// ("report"). Returns empty on success, else "PLACE.KEY: expected ...".
// Beyond types it checks what every run's report holds: hosts_ready and
// each row of hosts_by_reason at most hosts; families, selected and (with a
// title) verdict rows summing to hosts.
std::string fleet_from_json(const nlohmann::json& report, const std::string& place,
                            FleetAggregate& aggregate, std::string& verdict_title);

// Largest count a report may hold: exact in every JSON reader (2^53).
inline constexpr std::uint64_t kMaxFleetCount = std::uint64_t{1} << 53;

}  // namespace hwaccel::sim
