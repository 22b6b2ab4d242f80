// Every preset is the spec form of the hand-written fixture of the same name:
// its synthesis must detect the same devices (names, counts, memory totals,
// kinds, status and reasons, compute class, bus ids, partitions) and the same
// links, and replay strictly (no tool run the probes ask for is missing).
#include <gtest/gtest.h>

#include <filesystem>

#include "sim/presets.h"
#include "sim/spec_reader.h"
#include "sim/synth.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "tests/support/test_support.h"

namespace hwaccel::sim {
namespace {

std::string describe(const Entry& e) {
  std::string s = e.backend + ":" + std::to_string(e.index) + " " + e.name + " [" +
                  std::string(to_string(e.type)) + "] " + std::string(to_string(e.memory.kind)) +
                  " total=" + (e.memory.total_bytes ? std::to_string(*e.memory.total_bytes) : "?") +
                  " class=" + e.compute_class + " bus=" + e.pci_bus_id +
                  (e.status == EntryStatus::ready ? " ready" : " unavailable");
  if (e.reason) s += " " + std::string(to_string(e.reason->code)) + ": " + e.reason->detail;
  if (e.partition) s += " partition=" + e.partition->profile;
  return s;
}

std::string describe(const Detection& d) {
  std::string s;
  for (const auto& b : d.backends) {
    s += "backend " + b.name + (b.ready ? " ready" : " unavailable");
    if (b.reason) s += " " + std::string(to_string(b.reason->code)) + ": " + b.reason->detail;
    s += "\n";
  }
  for (const auto& e : d.entries) s += describe(e) + "\n";
  for (const auto& l : d.links)
    s += "link " + l.a + " " + l.b + " " + l.kind + " x" + std::to_string(l.lanes) + " " + l.path +
         "\n";
  return s;
}

Snapshot synthesized(const std::string& name) {
  auto text = preset_spec(name);
  EXPECT_TRUE(text) << name;
  HostSpec spec;
  auto error = parse_spec(text.value_or(""), "preset:" + name, spec);
  EXPECT_FALSE(error) << error->to_string();
  return synthesize(spec);
}

std::vector<std::string> fixture_names() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(testing::source_path("fixtures/hosts")))
    if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

class PresetMatchesFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(PresetMatchesFixture, DetectsTheSameDevicesAsTheHandWrittenHost) {
  const std::string name = GetParam();
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + name + ".yaml"));
  ASSERT_FALSE(loaded.error) << loaded.error->to_string();
  SnapshotHost fixture(*loaded.snapshot);
  SnapshotHost synth(synthesized(name));
  const Detection expected = detect(fixture);
  const Detection actual = detect(synth);
  EXPECT_EQ(describe(expected), describe(actual));
  EXPECT_TRUE(synth.misses().empty())
      << "the synthesised " << name << " lacks a tool run: " << synth.misses()[0][1];
  EXPECT_EQ(expected.host.facts.cpus, actual.host.facts.cpus);
  EXPECT_EQ(expected.host.facts.arch, actual.host.facts.arch);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, PresetMatchesFixture, ::testing::ValuesIn(fixture_names()),
                         [](const auto& info) { return testing::test_name(info.param); });

TEST(Presets, EveryFixtureHostHasAPreset) {
  auto names = preset_names();
  for (const auto& fixture : fixture_names()) {
    const bool has = std::find(names.begin(), names.end(), fixture) != names.end();
    EXPECT_TRUE(has) << "fixtures/hosts/" << fixture << ".yaml has no preset in sim/presets.cpp";
  }
}

}  // namespace
}  // namespace hwaccel::sim
