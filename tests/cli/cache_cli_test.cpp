// `--cache TTL` end to end: the second run is served from the cache and says
// so; the file is private (0600); corrupt, foreign and stale caches are
// ignored with a warning and rewritten.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

struct CacheRun {
  std::string dir = make_temp_dir();
  std::string folder() const { return dir + "/hwaccel"; }
  std::string file() const { return folder() + "/detect.json"; }
  // `timeout`: a cache that makes us hang fails the test instead of hanging it.
  CommandResult run(const std::string& flags = "--cache 1h") const {
    return run_command("timeout 30 env XDG_CACHE_HOME=" + dir + " " + bin("hwaccel") +
                       " detect --json " + flags);
  }
};

bool from_cache(const CommandResult& r) {
  return r.out.find("detection from the cache") != std::string::npos;
}

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
    EXPECT_NE(rewritten.find("\"schema\": \"hwaccel-cache/2\""), std::string::npos) << why;
  }
  auto quiet = c.run("--cache 1h -q");
  EXPECT_TRUE(quiet.err.empty()) << quiet.err;
}

// A cache anyone but this user could have written is not this user's words:
// ignored with the reason, and the machine detected live.
TEST(CacheCli, ACacheOthersCouldWriteIsNotTrusted) {
  CacheRun c;
  ASSERT_EQ(c.run().exit_code, 0);
  ASSERT_TRUE(from_cache(c.run())) << "a fresh private cache must be used";

  ASSERT_EQ(::chmod(c.file().c_str(), 0666), 0);  // world-writable
  auto writable = c.run();
  EXPECT_EQ(writable.exit_code, 0) << writable.err;
  EXPECT_FALSE(from_cache(writable)) << writable.out;
  EXPECT_NE(writable.err.find("not trusted: " + c.file() + " is mode 0666"), std::string::npos)
      << writable.err;
  struct stat st {};
  ASSERT_EQ(::stat(c.file().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u) << "rewritten private, in our own private folder";
  ASSERT_TRUE(from_cache(c.run()));

  ASSERT_EQ(::chmod(c.folder().c_str(), 0755), 0);  // a folder others can read
  auto open_folder = c.run();
  EXPECT_FALSE(from_cache(open_folder)) << open_folder.out;
  EXPECT_NE(open_folder.err.find(c.folder() + ": the folder is mode 0755"), std::string::npos)
      << open_folder.err;
  ASSERT_EQ(::chmod(c.folder().c_str(), 0700), 0);
  ASSERT_TRUE(from_cache(c.run()));

  if (::geteuid() == 0) {  // a foreign owner can only be made as root
    ASSERT_EQ(::chown(c.file().c_str(), 65534, 65534), 0);
    auto foreign = c.run();
    EXPECT_FALSE(from_cache(foreign)) << foreign.out;
    EXPECT_NE(foreign.err.find("is owned by uid 65534, not by you"), std::string::npos)
        << foreign.err;
  }
}

// A cache folder that is a link to a folder elsewhere is neither read nor
// written through.
TEST(CacheCli, ALinkedCacheFolderIsNotFollowed) {
  CacheRun real;
  ASSERT_EQ(real.run().exit_code, 0);
  const std::string before = slurp(real.file()).value_or("");
  ASSERT_FALSE(before.empty());
  CacheRun linked;
  ASSERT_EQ(::symlink(real.folder().c_str(), linked.folder().c_str()), 0);
  auto r = linked.run();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(from_cache(r)) << r.out;
  EXPECT_NE(r.err.find(linked.folder() + ": the folder is a symbolic link"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("cannot write the cache"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(real.file()).value_or(""), before) << "written through the link";
}

// A FIFO at the cache path: never opened for a blocking read (that hung forever).
TEST(CacheCli, AFifoAtTheCachePathDoesNotHang) {
  CacheRun c;
  ASSERT_EQ(c.run().exit_code, 0);
  ASSERT_EQ(::unlink(c.file().c_str()), 0);
  ASSERT_EQ(::mkfifo(c.file().c_str(), 0600), 0);
  auto r = c.run();
  EXPECT_EQ(r.exit_code, 0) << "exit " << r.exit_code << " after " << r.seconds << " s\n" << r.err;
  EXPECT_LT(r.seconds, 20);
  EXPECT_NE(r.err.find(c.file() + " is a FIFO"), std::string::npos) << r.err;
  EXPECT_FALSE(from_cache(r));
  struct stat st {};
  ASSERT_EQ(::lstat(c.file().c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "a FIFO is not ours to replace";
}

TEST(CacheCli, ABadTtlIsAUsageError) {
  CacheRun c;
  auto r = c.run("--cache soon");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("15m"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace hwaccel::testing
