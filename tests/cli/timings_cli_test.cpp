// hwaccel detect --timings: a line per backend and a total, in text and JSON;
// without the flag, reports stay byte for byte the same (no stray times).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

std::string detect_on(const std::string& fixture, const std::string& flags) {
  auto r = run_command(bin("hwaccel") + " detect " + flags + " --host " +
                       source_path("fixtures/hosts/" + fixture + ".yaml"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST(DetectTimings, TextHasEveryBackendAndATotal) {
  std::string out = detect_on("dgx-h100", "--timings");
  auto table = out.find("\nBACKEND  ");
  ASSERT_NE(table, std::string::npos) << out;
  std::string timings = out.substr(table);
  for (const char* name : {"cuda", "rocm", "vulkan", "tpu", "cpu", "(system scan)", "total"})
    EXPECT_NE(timings.find(std::string("\n") + name + " "), std::string::npos)
        << name << " missing in:\n"
        << timings;
}

TEST(DetectTimings, JsonCarriesMillisecondsOnlyWhenAsked) {
  auto doc = nlohmann::json::parse(detect_on("gx10", "--json --timings"));
  ASSERT_TRUE(doc.contains("timings"));
  EXPECT_GE(doc["timings"]["total_ms"].get<double>(), 0.0);
  EXPECT_TRUE(doc["timings"]["backends"].contains("cuda"));
  EXPECT_TRUE(doc["timings"]["backends"].contains("cpu"));
  auto plain = nlohmann::json::parse(detect_on("gx10", "--json"));
  EXPECT_FALSE(plain.contains("timings"));
  // Deterministic output: two runs without --timings give the same bytes.
  EXPECT_EQ(detect_on("gx10", "--json"), detect_on("gx10", "--json"));
}

}  // namespace
}  // namespace hwaccel::testing
