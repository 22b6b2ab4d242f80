// The shim text: `--latency` puts one sleep of the recorded wall time in front of
// each answer that has one, and nothing changes without it.
#include "sim/shim_script.h"

#include <gtest/gtest.h>

namespace hwaccel::sim {
namespace {

ToolEntry tool(std::vector<std::string> argv, ToolOutcome outcome, std::int64_t ms) {
  ToolEntry t;
  t.argv = std::move(argv);
  t.run.outcome = outcome;
  t.run.out = "GPU 0: NVIDIA H200\n";
  t.run.ms = ms;
  t.has_ms = true;
  return t;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

TEST(ShimScript, SleepSecondsKeepsMilliseconds) {
  EXPECT_EQ(sleep_seconds(1), "0.001");
  EXPECT_EQ(sleep_seconds(23), "0.023");
  EXPECT_EQ(sleep_seconds(200), "0.200");
  EXPECT_EQ(sleep_seconds(1500), "1.500");
  EXPECT_EQ(sleep_seconds(12345), "12.345");
}

TEST(ShimScript, LatencySleepsTheRecordedTimeBeforeAnswering) {
  ToolEntry list = tool({"nvidia-smi", "-L"}, ToolOutcome::exited, 24);
  std::vector<ShimRun> runs{{&list, "7"}};
  const std::string with = shim_script("nvidia-smi", runs, "../tools", "/usr/bin/sleep");
  EXPECT_NE(with.find("then\n  /usr/bin/sleep 0.024\n  cat \"$data/7.out\"\n  exit 0\n"),
            std::string::npos)
      << with;
  const std::string without = shim_script("nvidia-smi", runs, "../tools");
  EXPECT_EQ(count(without, "sleep"), 0u) << without;
  // The rest of the script is the same, byte for byte.
  std::string stripped = with;
  stripped.erase(stripped.find("  /usr/bin/sleep 0.024\n"), 23);
  EXPECT_EQ(stripped, without);
}

TEST(ShimScript, NoSleepForZeroMillisecondsOrARecordedHang) {
  ToolEntry instant = tool({"nvidia-smi", "-L"}, ToolOutcome::exited, 0);
  ToolEntry hang = tool({"nvidia-smi", "topo", "-m"}, ToolOutcome::timeout, 5000);
  ToolEntry slow = tool({"nvidia-smi", "-q"}, ToolOutcome::exited, 1200);
  std::vector<ShimRun> runs{{&instant, "0"}, {&hang, "1"}, {&slow, "2"}};
  const std::string s = shim_script("nvidia-smi", runs, "../tools", "/bin/sleep");
  EXPECT_EQ(count(s, "/bin/sleep "), 1u) << s;  // the slow one only
  EXPECT_NE(s.find("  /bin/sleep 1.200\n  cat \"$data/2.out\""), std::string::npos) << s;
  EXPECT_EQ(count(s, "exec sleep 2147483647"), 1u) << s;  // the hang, as without --latency
}

TEST(ShimScript, ASleepProgramWithOddCharactersIsQuoted) {
  ToolEntry slow = tool({"x"}, ToolOutcome::exited, 5);
  std::vector<ShimRun> runs{{&slow, "0"}};
  const std::string s = shim_script("x", runs, "../tools", "/opt/my tools/sleep");
  EXPECT_NE(s.find("  '/opt/my tools/sleep' 0.005\n"), std::string::npos) << s;
}

}  // namespace
}  // namespace hwaccel::sim
