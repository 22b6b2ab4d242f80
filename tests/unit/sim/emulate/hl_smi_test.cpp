// hl-smi's emulator, read back by the Gaudi probe: the same devices as the fixture.
#include <gtest/gtest.h>

#include "src/probe/gaudi_probe.h"
#include "src/probe/hl_smi_csv.h"
#include "tests/unit/sim/emulate/emulated_hosts.h"

namespace hwaccel::sim {
namespace {

using testing::ask;
using testing::count;

// The probe's own query answered by the emulator (from hwaccel's devices, the
// recorded run taken away) detects what the recording detected.
TEST(HlSmiEmulator, TheGaudiProbeReadsBackTheSameDevicesOnEveryFixture) {
  auto hosts = testing::hosts_with("gaudi");
  ASSERT_FALSE(hosts.empty());
  for (const auto& c : hosts) {
    if (c->detection.entries.empty() ||
        testing::describe(c->detection, "gaudi").find(" ready\n") == std::string::npos)
      continue;
    Snapshot bare = testing::without(c->snapshot, {gaudi_query_argv()});
    EmulatedHost host{bare, c->detection};
    ToolAnswer answer = find_tool_emulator("hl-smi")(host, gaudi_query_argv());
    ASSERT_EQ(answer.exit_code, 0) << c->name << answer.err;
    Detection again = testing::detect_with(c->snapshot, gaudi_query_argv(), answer);
    EXPECT_EQ(testing::describe(again, "gaudi"), testing::describe(c->detection, "gaudi"))
        << c->name << "\n"
        << answer.out;
  }
}

TEST(HlSmiEmulator, CsvVariantsAndTheTable) {
  auto c = testing::load_host("gaudi3-8");
  ASSERT_TRUE(c);
  auto csv = ask(*c, {"hl-smi", "-Q", "bus_id,memory.used,name", "-f", "csv"});
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')), "bus_id, memory.used [MiB], name");
  EXPECT_NE(csv.out.find("0000:3b:00.0, 672 MiB, HL-325L\n"), std::string::npos) << csv.out;
  auto parsed = parse_hl_smi_query(csv.out);
  EXPECT_EQ(parsed.devices.size(), 8u);
  auto bare =
      ask(*c, {"hl-smi", "--query-aip=index,memory.total", "--format=csv,noheader,nounits"});
  EXPECT_EQ(bare.out.substr(0, 9), "0, 131072") << bare.out;
  EXPECT_EQ(count(bare.out, "\n"), 8u);
  auto table = ask(*c, {"hl-smi"});
  EXPECT_NE(table.out.find(
                "| Driver Version:                                     1.24.1-b336d5e          |"),
            std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("|   0  HL-325L             N/A  | 0000:3b:00.0     N/A |"),
            std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("|   672MiB / 131072MiB |"), std::string::npos) << table.out;
  for (const auto& line : std::vector<std::string>{"| AIP  Name", "|====="})
    EXPECT_NE(table.out.find(line), std::string::npos);
}

TEST(HlSmiEmulator, UnknownFieldsAndOptionsAreRefused) {
  auto c = testing::load_host("gaudi3-8");
  ASSERT_TRUE(c);
  auto field = ask(*c, {"hl-smi", "-Q", "index,clocks.sm", "-f", "csv"});
  EXPECT_EQ(field.exit_code, 2);
  EXPECT_EQ(field.err, "Field \"clocks.sm\" is not a valid field to query.\n\n");
  EXPECT_EQ(ask(*c, {"hl-smi", "--bogus"}).exit_code, 2);
  auto none = testing::load_host("gaudi3-no-driver");
  ASSERT_TRUE(none);
  EXPECT_EQ(ask(*none, {"hl-smi"}).exit_code, 1);
}

}  // namespace
}  // namespace hwaccel::sim
