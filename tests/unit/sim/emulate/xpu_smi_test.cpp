// xpu-smi's emulator, read back by the oneAPI probe: the same devices.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/probe/xpu_smi_discovery.h"
#include "tests/unit/sim/emulate/emulated_hosts.h"

namespace hwaccel::sim {
namespace {

using testing::ask;

const std::vector<std::string> kDiscovery = {"xpu-smi", "discovery"};

TEST(XpuSmiEmulator, TheOneapiProbeReadsBackTheSameDevicesOnEveryFixture) {
  auto hosts = testing::hosts_with("oneapi");
  ASSERT_FALSE(hosts.empty());
  for (const auto& c : hosts) {
    Snapshot bare = testing::without(c->snapshot, {kDiscovery});
    EmulatedHost host{bare, c->detection};
    ToolAnswer answer = find_tool_emulator("xpu-smi")(host, kDiscovery);
    ASSERT_EQ(answer.exit_code, 0) << c->name;
    EXPECT_EQ(parse_xpu_smi_discovery(answer.out).problems, std::vector<std::string>{})
        << answer.out;
    Detection again = testing::detect_with(c->snapshot, kDiscovery, answer);
    EXPECT_EQ(testing::describe(again, "oneapi"), testing::describe(c->detection, "oneapi"))
        << c->name << "\n"
        << answer.out;
  }
}

TEST(XpuSmiEmulator, RecordedDetailsSurviveInTableAndJson) {
  auto c = testing::load_host("intel-max-1550");
  ASSERT_TRUE(c);
  auto table = ask(*c, {"xpu-smi", "discovery", "-d", "0"});
  EXPECT_NE(table.out.find("| 0         | Device Type: GPU"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("SOC UUID: 00000000-0000-0029-0000-002f0bd58086"), std::string::npos);
  EXPECT_NE(table.out.find("PCI Device ID: 0x0bd5"), std::string::npos);
  auto json = nlohmann::json::parse(ask(*c, {"xpu-smi", "discovery", "-j"}).out);
  ASSERT_EQ(json.at("device_list").size(), 4u);
  EXPECT_EQ(json["device_list"][3].at("pci_bdf_address"), "0000:ca:00.0");
  EXPECT_EQ(json["device_list"][0].at("drm_device"), "/dev/dri/card1");
  auto bad = ask(*c, {"xpu-smi", "discover"});
  EXPECT_EQ(bad.exit_code, 109);
  EXPECT_EQ(
      bad.err,
      "The following argument was not expected: discover\nRun with --help for more information.\n");
}

}  // namespace
}  // namespace hwaccel::sim
