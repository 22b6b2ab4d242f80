// vulkaninfo's emulator, read back by the Vulkan probe: the same devices.
#include <gtest/gtest.h>

#include "tests/unit/sim/emulate/emulated_hosts.h"

namespace hwaccel::sim {
namespace {

using testing::ask;
using testing::count;

const std::vector<std::string> kSummary = {"vulkaninfo", "--summary"};

// From hwaccel's devices alone (the recorded summary taken away), the summary
// gives the probe the same Vulkan devices, software renderers included.
TEST(VulkaninfoEmulator, TheVulkanProbeReadsBackTheSameDevicesOnEveryFixture) {
  auto hosts = testing::hosts_with("vulkan");
  ASSERT_GE(hosts.size(), 2u);
  for (const auto& c : hosts) {
    Snapshot bare = testing::without(c->snapshot, {kSummary});
    EmulatedHost host{bare, c->detection};
    ToolAnswer answer = find_tool_emulator("vulkaninfo")(host, kSummary);
    ASSERT_EQ(answer.exit_code, 0) << c->name << answer.err;
    Detection again = testing::detect_with(c->snapshot, kSummary, answer);
    EXPECT_EQ(testing::describe(again, "vulkan"), testing::describe(c->detection, "vulkan"))
        << c->name << "\n"
        << answer.out;
  }
}

TEST(VulkaninfoEmulator, FullTextHasEachDevicesProperties) {
  auto c = testing::load_host("vulkan-desktop");
  ASSERT_TRUE(c);
  auto full = ask(*c, {"vulkaninfo"});
  EXPECT_EQ(full.exit_code, 0);
  EXPECT_EQ(count(full.out, "VkPhysicalDeviceProperties:\n---------------------------\n"), 2u)
      << full.out;
  EXPECT_NE(full.out.find("\tdeviceName    = NVIDIA GeForce RTX 3090 (NVK GA102)\n"),
            std::string::npos)
      << full.out;
  EXPECT_NE(full.out.find("\tdriverID   = DRIVER_ID_MESA_NVK\n"), std::string::npos) << full.out;
  EXPECT_NE(full.out.find("Vulkan Instance Version: 1.3.296\n"), std::string::npos);
  EXPECT_EQ(ask(*c, {"vulkaninfo", "--summary"}).out, c->snapshot.tools.at(kSummary).run.out);
  auto bad = ask(*c, {"vulkaninfo", "--sumary"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.out.find("USAGE: vulkaninfo [options]"), std::string::npos);
}

TEST(VulkaninfoEmulator, ANoDriverHostFailsEveryQuestionAsRecorded) {
  auto c = testing::load_host("vulkan-no-driver");
  ASSERT_TRUE(c);
  for (const auto& argv :
       std::vector<std::vector<std::string>>{{"vulkaninfo"}, {"vulkaninfo", "--summary"}}) {
    auto answer = ask(*c, argv);
    EXPECT_EQ(answer.exit_code, 1);
    EXPECT_NE(answer.err.find("Found no drivers!"), std::string::npos);
  }
}

}  // namespace
}  // namespace hwaccel::sim
