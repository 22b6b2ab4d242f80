// `hwaccel export ... --interval DURATION`: what it accepts, and what it writes
// and says (the SIGTERM path is in tests/fleet/fleet_tools_test.sh, with the
// tools that read the file).
#include <gtest/gtest.h>

#include <string>

#include "cli/common/export_command.h"
#include "tests/support/run_command.h"
#include "tests/support/test_support.h"

namespace hwaccel::testing {
namespace {

TEST(ExportAgent, IntervalsAreReadAsAPersonWritesThem) {
  using cli::parse_interval;
  EXPECT_EQ(parse_interval("300"), 300);
  EXPECT_EQ(parse_interval("60s"), 60);
  EXPECT_EQ(parse_interval("5m"), 300);
  EXPECT_EQ(parse_interval("1h30m"), 5400);
  EXPECT_EQ(parse_interval("7d"), 7 * 86400);
  for (const char* bad :
       {"", "0", "0s", "8d", "5x", "m", "1h30", "-5", "1.5m", "99999999999999999999"})
    EXPECT_FALSE(parse_interval(bad)) << bad;
}

TEST(ExportAgent, ABadIntervalIsAUsageErrorAndOneshotExcludesIt) {
  const std::string host = source_path("fixtures/hosts/dgx-h100.yaml");
  auto r = run_command(bin("hwaccel") + " export nfd --host " + host + " --interval 5x");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("expected 1s to 7d"), std::string::npos) << r.err;
  r = run_command(bin("hwaccel") + " export nfd --host " + host + " --interval 5m --oneshot");
  EXPECT_NE(r.exit_code, 0);
  r = run_command(bin("hwaccel") + " export nfd --host " + host + " --oneshot");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.find("# +expiry-time="), std::string::npos) << "a one-shot file never expires";
}

}  // namespace
}  // namespace hwaccel::testing
