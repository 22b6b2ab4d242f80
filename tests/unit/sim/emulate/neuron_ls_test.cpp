// neuron-ls's emulator, read back by the Neuron probe: the same devices.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/probe/neuron_probe.h"
#include "tests/unit/sim/emulate/emulated_hosts.h"

namespace hwaccel::sim {
namespace {

using testing::ask;
using testing::count;

// On every Neuron fixture (inf2 recorded neuron-ls, trn1 did not have it) the
// JSON made from hwaccel's devices alone gives the probe the same devices.
TEST(NeuronLsEmulator, TheNeuronProbeReadsBackTheSameDevicesOnEveryFixture) {
  auto hosts = testing::hosts_with("neuron");
  ASSERT_GE(hosts.size(), 2u);
  for (const auto& c : hosts) {
    Snapshot bare = testing::without(c->snapshot, {neuron_ls_argv(), neuron_ls_newer_argv()});
    EmulatedHost host{bare, c->detection};
    ToolAnswer answer = find_tool_emulator("neuron-ls")(host, {"neuron-ls", "-j"});
    ASSERT_EQ(answer.exit_code, 0) << c->name << answer.err;
    Detection again = testing::detect_with(c->snapshot, neuron_ls_argv(), answer);
    EXPECT_EQ(testing::describe(again, "neuron"), testing::describe(c->detection, "neuron"))
        << c->name << "\n"
        << answer.out;
  }
}

TEST(NeuronLsEmulator, TableAndRecordedJson) {
  auto c = testing::load_host("inf2-48xlarge");
  ASSERT_TRUE(c);
  auto table = ask(*c, {"neuron-ls"});
  EXPECT_EQ(table.out.substr(0, table.out.find('\n')), "instance-type: inf2.48xlarge");
  EXPECT_NE(table.out.find("| NEURON | NEURON | NEURON | CONNECTED |"), std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("| 0      | 2      | 32 GB  | 11, 1     | 0000:10:1c.0 |"),
            std::string::npos)
      << table.out;
  EXPECT_EQ(count(table.out, " 32 GB "), 12u);
  auto json = ask(*c, {"neuron-ls", "--output-format", "json"});
  EXPECT_EQ(json.out, c->snapshot.tools.at(neuron_ls_argv()).run.out)
      << "the recorded answer, as it was";
}

TEST(NeuronLsEmulator, UnknownFlagAndMissingDriver) {
  auto c = testing::load_host("inf2-48xlarge");
  ASSERT_TRUE(c);
  auto bad = ask(*c, {"neuron-ls", "--list"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("unknown flag: --list"), std::string::npos);
  auto none = testing::load_host("cpu-only");
  ASSERT_TRUE(none);
  auto fatal = ask(*none, {"neuron-ls"});
  EXPECT_EQ(fatal.exit_code, 1);
  EXPECT_NE(fatal.err.find("failed to discover Neuron devices"), std::string::npos);
}

}  // namespace
}  // namespace hwaccel::sim
