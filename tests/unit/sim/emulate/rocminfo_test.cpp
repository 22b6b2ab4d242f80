// rocminfo's emulator: one HSA agent per CPU node and per AMD GPU.
#include <gtest/gtest.h>

#include "tests/unit/sim/emulate/emulated_hosts.h"

namespace hwaccel::sim {
namespace {

using testing::ask;
using testing::count;

TEST(RocminfoEmulator, AgentsAreTheHostsCpuNodesAndGpus) {
  for (const auto& c : testing::hosts_with("rocm")) {
    std::size_t ready = 0;
    for (const auto& e : c->detection.entries)
      if (e.backend == "rocm" && !e.partition && e.status == EntryStatus::ready) ++ready;
    auto answer = ask(*c, {"rocminfo"});
    if (ready == 0) {
      EXPECT_EQ(answer.out, "ROCk module is NOT loaded, possibly no GPU devices\n") << c->name;
      EXPECT_EQ(answer.exit_code, 1);
      continue;
    }
    EXPECT_EQ(answer.exit_code, 0) << c->name;
    EXPECT_EQ(count(answer.out, "  Device Type:             GPU"), ready) << c->name << "\n"
                                                                          << answer.out;
    EXPECT_NE(answer.out.find("*** Done ***"), std::string::npos);
  }
}

TEST(RocminfoEmulator, Mi300xAgentsCarryKfdNodesAndPoolSizes) {
  auto c = testing::load_host("mi300x-8");
  ASSERT_TRUE(c);
  auto out = ask(*c, {"rocminfo"}).out;
  EXPECT_EQ(count(out, "  Device Type:             CPU"), 2u) << "two KFD CPU nodes";
  EXPECT_EQ(count(out, "  Name:                    gfx942"), 8u);
  EXPECT_EQ(count(out, "  Marketing Name:          AMD Instinct MI300X"), 8u);
  EXPECT_NE(out.find("Agent 3                  \n*******                  \n  Name:                "
                     "    gfx942"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("  Node:                    2 "), std::string::npos);
  EXPECT_NE(out.find("  Compute Unit:            304 "), std::string::npos)
      << "1216 SIMDs, 4 per CU";
  EXPECT_NE(out.find("      Size:                    200998912(0xbfb0000) KB"), std::string::npos)
      << out;
}

}  // namespace
}  // namespace hwaccel::sim
