// Test helpers for the vendor-tool emulators: fixture hosts with their detection,
// and the round trip "put the emulator's answer where the probe asks, detect
// again" that checks an emulator against hwaccel's own parsers.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/emulate/tool_emulator.h"
#include "sim/presets.h"
#include "sim/spec_reader.h"
#include "sim/synth.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "tests/support/test_support.h"

namespace hwaccel::sim::testing {

struct HostCase {
  std::string name;
  Snapshot snapshot;
  Detection detection;
  EmulatedHost host() const { return {snapshot, detection}; }
};

inline std::unique_ptr<HostCase> detected(std::string name, Snapshot snapshot) {
  auto c = std::make_unique<HostCase>();
  c->name = std::move(name);
  c->snapshot = std::move(snapshot);
  SnapshotHost host(c->snapshot);
  c->detection = detect(host);
  return c;
}

inline std::unique_ptr<HostCase> load_host(const std::string& fixture) {
  auto loaded =
      load_snapshot_file(hwaccel::testing::source_path("fixtures/hosts/" + fixture + ".yaml"));
  if (!loaded.snapshot) return nullptr;
  return detected(fixture, *loaded.snapshot);
}

// `hwsim synth --preset NAME`: the fixture's host, with synthesis's own tool
// outputs and files.
inline std::unique_ptr<HostCase> synthesized_host(const std::string& preset) {
  auto text = preset_spec(preset);
  if (!text) return nullptr;
  HostSpec spec;
  if (parse_spec(*text, "preset:" + preset, spec)) return nullptr;
  return detected("preset:" + preset, synthesize(spec));
}

// The fixtures whose reviewed `detect` golden lists a device of `backend` (cheap
// to ask: the golden is text), loaded and detected, each followed by its preset
// synthesised.
inline std::vector<std::unique_ptr<HostCase>> hosts_with(const std::string& backend) {
  std::vector<std::unique_ptr<HostCase>> out;
  for (const auto& name : hwaccel::testing::fixture_host_names()) {
    auto golden = hwaccel::testing::slurp(
        hwaccel::testing::source_path("fixtures/hosts/" + name + ".expected/detect.txt"));
    if (!golden || golden->find("\n" + backend + ":0 ") == std::string::npos) continue;
    if (auto c = load_host(name)) out.push_back(std::move(c));
    auto synthesized = synthesized_host(name);
    EXPECT_TRUE(synthesized) << "no preset synthesises " << name;
    if (synthesized) out.push_back(std::move(synthesized));
  }
  return out;
}

// What a user of the tool sees of hwaccel's devices of one backend.
inline std::string describe(const Detection& d, const std::string& backend) {
  std::string s;
  for (const auto& e : d.entries) {
    if (e.backend != backend || e.partition) continue;
    s += e.name + " bus=" + e.pci_bus_id +
         " total=" + (e.memory.total_bytes ? std::to_string(*e.memory.total_bytes) : "?") +
         " free=" + (e.memory.free_bytes ? std::to_string(*e.memory.free_bytes) : "?") +
         " class=" + e.compute_class + " driver=" + e.driver_version +
         (e.status == EntryStatus::ready ? " ready" : " unavailable") + "\n";
  }
  return s;
}

// The snapshot with `argv` answered by `answer` (and `drop` removed), detected again.
inline Detection detect_with(Snapshot snapshot, const std::vector<std::string>& argv,
                             const ToolAnswer& answer,
                             const std::vector<std::vector<std::string>>& drop = {}) {
  for (const auto& d : drop) snapshot.tools.erase(d);
  ToolEntry entry;
  entry.argv = argv;
  entry.run.outcome = ToolOutcome::exited;
  entry.run.exit_code = answer.exit_code;
  entry.run.out = answer.out;
  entry.run.err = answer.err;
  snapshot.tools[argv] = entry;
  SnapshotHost host(std::move(snapshot));
  return detect(host);
}

// The snapshot without the recorded runs `drop`: the emulator must answer from
// hwaccel's devices alone.
inline Snapshot without(Snapshot snapshot, const std::vector<std::vector<std::string>>& drop) {
  for (const auto& d : drop) snapshot.tools.erase(d);
  return snapshot;
}

inline ToolAnswer ask(const HostCase& c, const std::vector<std::string>& argv) {
  ToolEmulator f = find_tool_emulator(argv.at(0));
  EXPECT_NE(f, nullptr) << argv[0];
  if (!f) return {};
  return f(c.host(), argv);
}

inline std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

}  // namespace hwaccel::sim::testing
