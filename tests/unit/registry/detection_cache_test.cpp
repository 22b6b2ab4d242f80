#include "src/registry/detection_cache.h"

#include <gtest/gtest.h>

#include "tests/unit/registry/registry_fixtures.h"

namespace hwaccel {
namespace {

TEST(DetectionCache, Ttls) {
  EXPECT_EQ(parse_ttl("300"), 300);
  EXPECT_EQ(parse_ttl("90s"), 90);
  EXPECT_EQ(parse_ttl("15m"), 900);
  EXPECT_EQ(parse_ttl("2h"), 7200);
  EXPECT_EQ(parse_ttl("1d"), 86400);
  for (const char* bad : {"", "m", "-5", "5x", "1.5h", "99999999999"})
    EXPECT_FALSE(parse_ttl(bad)) << bad;
}

TEST(DetectionCache, Rfc3339) {
  EXPECT_EQ(parse_rfc3339_utc("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(parse_rfc3339_utc("2026-11-29T18:00:00Z"), 1795975200);
  EXPECT_EQ(parse_rfc3339_utc("2026-11-29T18:00:00.123Z"), 1795975200) << "fractions ignored";
  EXPECT_FALSE(parse_rfc3339_utc("2026-02-30T00:00:00Z"));
  EXPECT_FALSE(parse_rfc3339_utc("yesterday"));
}

Detection sample() {
  Detection d = testing::detection_with(
      {testing::gpu("cuda", 0, 81559, 80000, "0000:18:00.0"), testing::cpu()});
  d.host.facts.hostname = "node";
  return d;
}

TEST(DetectionCache, FreshCacheIsUsedAndMarkedWithItsAge) {
  std::string text = encode_cache(sample(), "k", "2026-11-29T18:00:00Z");
  auto v = judge_cache(text, "k", 300, "2026-11-29T18:01:40Z");
  ASSERT_TRUE(v.detection) << v.why_not;
  EXPECT_EQ(v.age_s, 100);
  EXPECT_EQ(v.detection->entries.size(), 2u);
  mark_cached(*v.detection, v.age_s, "/c/detect.json");
  EXPECT_NE(v.detection->entries[0].memory.source.find("cached, 100 s old"), std::string::npos);
  ASSERT_FALSE(v.detection->warnings.empty());
  EXPECT_NE(v.detection->warnings.back().message.find("/c/detect.json"), std::string::npos);
}

TEST(DetectionCache, CorruptForeignAndStaleCachesAreRefusedWithTheReason) {
  std::string good = encode_cache(sample(), "k", "2026-11-29T18:00:00Z");
  const std::string now = "2026-11-29T18:01:00Z";
  struct Case {
    std::string text, key, expect;
    std::int64_t ttl = 300;
    std::string at;
  } cases[] = {
      {"{not json", "k", "corrupt", 300, ""},
      {"[]", "k", "corrupt", 300, ""},
      {R"({"schema": "something-else/1"})", "k", "foreign", 300, ""},
      // A schema that is not a string was "internal error: type_error.302".
      {R"({"schema": 1})", "k", "foreign", 300, ""},
      {R"({"schema": {"a": [1]}})", "k", "foreign", 300, ""},
      {good, "other", "foreign: made for other backends (k)", 300, ""},
      {good, "k", "stale: 60 s old, TTL 30 s", 30, ""},
      {good, "k", "in the future", 300, "2026-11-29T17:00:00Z"},
      {good.substr(0, good.size() / 2), "k", "corrupt", 300, ""},
  };
  for (const auto& c : cases) {
    auto v = judge_cache(c.text, c.key, c.ttl, c.at.empty() ? now : c.at);
    EXPECT_FALSE(v.detection) << c.text.substr(0, 40);
    EXPECT_NE(v.why_not.find(c.expect), std::string::npos) << v.why_not;
  }
}

}  // namespace
}  // namespace hwaccel
