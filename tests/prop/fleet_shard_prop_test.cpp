// Sharding a drawn fleet never changes its report: for any seed, count and
// number of shards (more shards than hosts included), every shard's part
// written as text, read back and merged prints the single run's report, text
// and JSON, byte for byte. Each host is detected once per case: its aggregate
// is summed into the single run and into its shard.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "sim/fleet_json.h"
#include "sim/fleet_part.h"
#include "sim/presets.h"
#include "sim/spec_reader.h"
#include "sim/synth.h"

namespace hwaccel::sim {
namespace {

const Snapshot& base_host() {
  static const Snapshot base = [] {
    HostSpec spec;
    EXPECT_FALSE(parse_spec(*preset_spec("ws-4090-busy"), "ws-4090-busy", spec));
    return synthesize(spec);
  }();
  return base;
}

RC_GTEST_PROP(FleetShardProp, MergedShardsEqualTheSingleRun, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto count = *rc::gen::inRange<std::uint64_t>(1, 13);
  const auto n = *rc::gen::inRange<std::uint64_t>(1, 17);
  // High rates: most hosts differ, so a host in the wrong shard shows.
  const FleetIdentity id{"test", "preset:ws-4090-busy", std::string(64, 'f'), seed, count, 0.5, 0.5,
                         ""};
  std::vector<FleetAggregate> hosts(count);
  FleetAggregate single;
  for (std::uint64_t i = 0; i < count; ++i) {
    RC_ASSERT(add_drawn_host(hosts[i], base_host(), seed, i, {id.fault_rate, id.busy_rate},
                             Reserve{}) == "");
    single.merge(hosts[i]);
  }
  std::vector<NamedPart> parts;
  for (std::uint64_t k = 0; k < n; ++k) {
    const Shard shard{k, n};
    const HostRange range = shard_range(count, shard);
    FleetPart part{id, shard, {}};
    for (auto i = range.first; i < range.end; ++i) part.aggregate.merge(hosts[i]);
    auto read = part_from_text(part_to_text(part));
    RC_ASSERT(read.part.has_value());
    parts.push_back({"part-" + std::to_string(k), *read.part});
  }
  // The order the files come in does not matter.
  std::rotate(parts.begin(), parts.begin() + std::ptrdiff_t(seed % n), parts.end());
  auto merged = merge_parts(parts);
  RC_ASSERT(merged.aggregate.has_value());
  RC_ASSERT(render_fleet(*merged.aggregate) == render_fleet(single));
  RC_ASSERT(fleet_to_json(*merged.aggregate, "").dump(2) == fleet_to_json(single, "").dump(2));
}

}  // namespace
}  // namespace hwaccel::sim
