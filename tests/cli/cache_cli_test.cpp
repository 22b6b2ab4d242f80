// `--cache TTL` end to end: the second run is served from the cache and says
// so; the file is private (0600); corrupt, foreign and stale caches are
// ignored with a warning and rewritten.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

struct CacheRun {
  std::string dir = make_temp_dir();
  std::string file() const { return dir + "/hwaccel/detect.json"; }
  CommandResult run(const std::string& flags = "--cache 1h") const {
    return run_command("env XDG_CACHE_HOME=" + dir + " " + bin("hwaccel") + " detect --json " +
                       flags);
  }
};

TEST(CacheCli, SecondRunComesFromTheCacheAndSaysHowOld) {
  CacheRun c;
  auto first = c.run();
  ASSERT_EQ(first.exit_code, 0) << first.err;
  struct stat st {};
  ASSERT_EQ(::stat(c.file().c_str(), &st), 0) << "no cache written";
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto second = c.run();
  ASSERT_EQ(second.exit_code, 0) << second.err;
  auto doc = nlohmann::json::parse(second.out);
  bool said = false;
  for (const auto& w : doc["warnings"])
    said |= w["message"].get<std::string>().find("detection from the cache") != std::string::npos;
  EXPECT_TRUE(said) << second.out;
  EXPECT_EQ(doc["devices"].size(), nlohmann::json::parse(first.out)["devices"].size());
}

TEST(CacheCli, BadCachesAreIgnoredWithAWarningAndRewritten) {
  CacheRun c;
  ASSERT_EQ(c.run().exit_code, 0);
  std::string good = slurp(c.file()).value_or("");
  ASSERT_FALSE(good.empty());
  std::string stale = std::regex_replace(good, std::regex(R"("written_at": "[^"]*")"),
                                         R"("written_at": "2001-01-01T00:00:00Z")");
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"garbage\x01\x02", "corrupt"},
           {R"({"schema": "someone-else/3"})", "foreign"},
           {stale, "stale"}}) {
    write_text(c.file(), text);
    auto r = c.run();
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("warning: --cache: ignoring"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("detection from the cache"), std::string::npos) << why;
    auto rewritten = slurp(c.file()).value_or("");
    EXPECT_NE(rewritten.find("\"schema\": \"hwaccel-cache/1\""), std::string::npos) << why;
  }
  auto quiet = c.run("--cache 1h -q");
  EXPECT_TRUE(quiet.err.empty()) << quiet.err;
}

TEST(CacheCli, ABadTtlIsAUsageError) {
  CacheRun c;
  auto r = c.run("--cache soon");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("15m"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace hwaccel::testing
