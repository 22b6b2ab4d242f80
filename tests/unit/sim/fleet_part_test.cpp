// Sharded fleets: shard K of N draws the hosts a single run draws there, a
// part survives its JSON round trip, the merge of every part prints the single
// run's report byte for byte, and parts that do not belong together are refused.
#include "sim/fleet_part.h"

#include <gtest/gtest.h>

#include "sim/fleet_json.h"
#include "sim/presets.h"
#include "sim/spec_reader.h"
#include "sim/synth.h"

namespace hwaccel::sim {
namespace {

Snapshot preset_host(const std::string& name) {
  HostSpec spec;
  EXPECT_FALSE(parse_spec(*preset_spec(name), name, spec));
  return synthesize(spec);
}

FleetIdentity identity(std::uint64_t seed, std::uint64_t count) {
  return {"test", "preset:ws-4090-busy", std::string(64, 'a'), seed, count, 0.2, 0.5, ""};
}

// One run's aggregate over hosts [first, end) of the fleet.
FleetAggregate draw(const Snapshot& base, const FleetIdentity& id, HostRange range) {
  FleetAggregate a;
  for (auto i = range.first; i < range.end; ++i)
    EXPECT_EQ(add_drawn_host(a, base, id.seed, i, {id.fault_rate, id.busy_rate}, Reserve{}), "");
  return a;
}

std::string json_text(const FleetAggregate& a, const std::string& title = "") {
  return fleet_to_json(a, title).dump(2);
}

// Every shard's part written and read back as text, then merged.
MergeResult merge_of_shards(const Snapshot& base, const FleetIdentity& id, std::uint64_t n) {
  std::vector<NamedPart> parts;
  for (std::uint64_t k = 0; k < n; ++k) {
    FleetPart p{id, {k, n}, draw(base, id, shard_range(id.count, {k, n}))};
    auto read = part_from_text(part_to_text(p));
    EXPECT_TRUE(read.part) << read.error;
    if (read.part) parts.push_back({"part-" + std::to_string(k), *read.part});
  }
  return merge_parts(parts);
}

TEST(FleetShard, KIsZeroBasedAndBelowN) {
  std::string why;
  auto s = parse_shard("2/3", why);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->index, 2u);
  EXPECT_EQ(s->count, 3u);
  EXPECT_TRUE(parse_shard("0/1", why));
  EXPECT_FALSE(parse_shard("3/3", why));
  EXPECT_NE(why.find("K must be 0 to 2"), std::string::npos) << why;
  EXPECT_NE(why.find("--array=0-2"), std::string::npos) << why;
  for (const char* bad : {"1", "1/0", "a/3", "-1/3", "1/3x", "/3", "1/", "0/1000001", " 1/3"})
    EXPECT_FALSE(parse_shard(bad, why)) << bad;
}

TEST(FleetShard, RangesTileTheFleetInOrder) {
  for (std::uint64_t count : {1u, 5u, 100u, 1001u})
    for (std::uint64_t n : {1u, 2u, 3u, 7u, 1000u}) {
      std::uint64_t next = 0, smallest = count, largest = 0;
      for (std::uint64_t k = 0; k < n; ++k) {
        auto r = shard_range(count, {k, n});
        EXPECT_EQ(r.first, next) << count << " " << k << "/" << n;
        next = r.end;
        smallest = std::min(smallest, r.size());
        largest = std::max(largest, r.size());
      }
      EXPECT_EQ(next, count);
      EXPECT_LE(largest - smallest, 1u) << "balanced";
    }
}

TEST(FleetShard, MergedShardsEqualTheSingleRunByteForByte) {
  const Snapshot base = preset_host("ws-4090-busy");
  const auto id = identity(11, 23);
  const FleetAggregate single = draw(base, id, {0, id.count});
  ASSERT_EQ(single.hosts, 23u);
  ASSERT_GT(single.hosts_by_reason.size(), 0u) << "a fleet with faults, so rows differ by shard";
  for (std::uint64_t n : {1u, 2u, 3u, 7u, 40u}) {  // 40: more shards than hosts
    auto merged = merge_of_shards(base, id, n);
    ASSERT_TRUE(merged.aggregate) << merged.error;
    EXPECT_EQ(render_fleet(*merged.aggregate), render_fleet(single)) << n << " shards";
    EXPECT_EQ(json_text(*merged.aggregate), json_text(single)) << n << " shards";
  }
}

TEST(FleetShard, AVerdictColumnTravelsWithTheParts) {
  const Snapshot base = preset_host("ws-4090-busy");
  auto id = identity(3, 4);
  id.verdict = "SERVES m q";
  FleetAggregate a = draw(base, id, {0, 4});
  a.verdicts["fits: x"] = 4;
  auto read = part_from_text(part_to_text({id, {0, 1}, a}));
  ASSERT_TRUE(read.part) << read.error;
  auto merged = merge_parts({{"p", *read.part}});
  ASSERT_TRUE(merged.aggregate) << merged.error;
  EXPECT_EQ(merged.verdict_title, "SERVES m q");
  EXPECT_EQ(render_fleet(*merged.aggregate, "SERVES m q"), render_fleet(a, "SERVES m q"));
}

// A valid part's text with one replacement made.
std::string part_with(const std::string& from, const std::string& to) {
  const Snapshot base = preset_host("ws-4090-busy");
  const auto id = identity(5, 6);
  std::string text = part_to_text({id, {1, 2}, draw(base, id, shard_range(6, {1, 2}))});
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from << " in " << text;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string error_of(const std::string& text) {
  auto read = part_from_text(text);
  EXPECT_FALSE(read.part);
  return read.error;
}

TEST(FleetPartHostile, EachBrokenPartIsRefusedNamingThePlace) {
  EXPECT_EQ(error_of("{\n  \"schema\": x\n}").rfind("2:13: not JSON: ", 0), 0u)
      << error_of("{\n  \"schema\": x\n}");
  EXPECT_EQ(error_of("").rfind("1:1: not JSON", 0), 0u) << error_of("");
  EXPECT_EQ(error_of(std::string(100, '[')), "1: nested deeper than a part is");
  EXPECT_EQ(error_of("[]"), "the document: expected an object (a hwsim-fleet-part/1 part)");
  const struct {
    const char* from;
    const char* to;
    const char* error;
  } cases[] = {
      {"hwsim-fleet-part/1", "hwsim-fleet-part/2",
       "schema: expected \"hwsim-fleet-part/1\", not \"hwsim-fleet-part/2\""},
      {"\"seed\": 5", "\"seed\": -5", "fleet.seed: expected a whole number"},
      {"\"seed\": 5", "\"seed\": 5.5", "fleet.seed: expected a whole number"},
      {"\"count\": 6", "\"count\": 0", "fleet.count: expected a whole number from 1"},
      {"\"fault_rate\": 0.2", "\"fault_rate\": 2", "fleet.fault_rate: expected a share"},
      {"\"index\": 1", "\"index\": 2", "shard.index: expected a whole number from 0 to 1"},
      {"\"first\": 3", "\"first\": 2", "shard: expected hosts 3 to 6 (shard 1/2 of 6)"},
      {"\"hosts\": 3", "\"hosts\": 4", "report.hosts: expected 3 (the shard's hosts)"},
      {"\"hosts_ready\":", "\"hosts_ready\": 99, \"x\":", "report: unexpected field \"x\""},
      {"\"verdict\": null", "\"verdict\": {\"title\": \"T\", \"hosts\": {}}",
       "report.verdict.hosts: expected counts that sum to hosts"},
      {"\"unreadable\": {}", "\"unreadable\": {\"a\\u001b[2J\": 1}",
       "report.unreadable: expected row names of 1 to 4096 characters without control"},
      {"\"schema\": \"hwsim-fleet/1\"", "\"schema\": \"hwsim-fleet/9\"",
       "report.schema: expected \"hwsim-fleet/1\""},
      {"\"selected\": {", "\"selected\": {\"extra\": 1,",
       "report.selected: expected counts that sum to hosts"},
      {"\"selected\": {", "\"selected\": {\"extra\": 9007199254740993,",
       "report.selected[\"extra\"]: expected a count"},
      {"\"shard\": {", "\"shard\": {\"more\": 1,", "shard: unexpected field \"more\""},
  };
  for (const auto& c : cases) {
    const std::string e = error_of(part_with(c.from, c.to));
    EXPECT_EQ(e.rfind(c.error, 0), 0u) << c.from << " -> " << c.to << ": " << e;
  }
}

TEST(FleetPartHostile, PartsThatDoNotMakeOneFleetAreRefused) {
  auto part = [&](std::uint64_t seed, std::uint64_t k, std::uint64_t n) {
    FleetPart p{identity(seed, 4), {k, n}, {}};
    p.aggregate.hosts = shard_range(4, {k, n}).size();
    return p;
  };
  auto other_seed = merge_parts({{"a.json", part(1, 0, 2)}, {"b.json", part(2, 1, 2)}});
  EXPECT_EQ(other_seed.error, "b.json: a shard of another fleet than a.json: seed 2 here, 1 there");
  auto twice = merge_parts({{"a.json", part(1, 0, 2)}, {"b.json", part(1, 0, 2)}});
  EXPECT_EQ(twice.error, "b.json: shard 0/2 again (also a.json)");
  auto missing = merge_parts({{"a.json", part(1, 0, 3)}, {"c.json", part(1, 2, 3)}});
  EXPECT_EQ(missing.error, "1 of 3 shards missing: 1/3");
  auto other_n = merge_parts({{"a.json", part(1, 0, 2)}, {"b.json", part(1, 1, 3)}});
  EXPECT_EQ(other_n.error, "b.json: shard 1/3, but a.json is one of 2 shards");
  FleetPart spec = part(1, 1, 2);
  spec.fleet.host_sha256 = std::string(64, 'b');
  spec.fleet.spec = "other.yaml";
  auto other_spec = merge_parts({{"a.json", part(1, 0, 2)}, {"b.json", spec}});
  EXPECT_EQ(other_spec.error.rfind("b.json: a shard of another fleet than a.json: spec "
                                   "\"other.yaml\" here, \"preset:ws-4090-busy\" there",
                                   0),
            0u)
      << other_spec.error;
  EXPECT_EQ(merge_parts({}).error, "no parts to merge");
}

}  // namespace
}  // namespace hwaccel::sim
