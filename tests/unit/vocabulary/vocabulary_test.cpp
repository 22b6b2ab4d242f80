// The Host's vocabulary (src/vocabulary/): the words the door, the snapshot and
// the probes share. The snapshot format spells them, so their text is a contract.
#include <gtest/gtest.h>

#include <cerrno>

#include "src/vocabulary/host_types.h"
#include "src/vocabulary/path.h"
#include "src/vocabulary/result.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

TEST(Vocabulary, FileKindAndOutcomeNamesAreTheSnapshotFormats) {
  EXPECT_EQ(to_string(FileKind::regular), "file");
  EXPECT_EQ(to_string(FileKind::directory), "dir");
  EXPECT_EQ(to_string(FileKind::char_device), "char");
  EXPECT_EQ(to_string(ToolOutcome::not_found), "not-found");
  EXPECT_EQ(to_string(ToolOutcome::permission_denied), "permission-denied");
}

TEST(Vocabulary, ToolRunIsOkOnlyWhenItExitedZero) {
  ToolRun run;
  EXPECT_TRUE(run.ok());
  run.exit_code = 1;
  EXPECT_FALSE(run.ok());
  run = ToolRun{};
  run.outcome = ToolOutcome::timeout;
  EXPECT_FALSE(run.ok());
}

TEST(Vocabulary, ErrnoNamesRoundTrip) {
  for (int code : {ENOENT, EACCES, EPERM, EIO, ENOTDIR, ELOOP}) {
    EXPECT_EQ(errno_from_name(errno_name(code)), code) << errno_name(code);
  }
  EXPECT_EQ(errno_name(ENOENT), "ENOENT");
  EXPECT_EQ(errno_from_name("ENOTANERRNO"), 0);
  Result<int> failed = make_error(EACCES, "/dev/nvidia0");
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().errno_name(), "EACCES");
}

TEST(Vocabulary, PathRules) {
  EXPECT_EQ(normalize_absolute("/a//b/./c/"), "/a/b/c");
  EXPECT_EQ(normalize_absolute("/../x"), "/x");
  EXPECT_EQ(normalize_absolute("relative"), std::nullopt);
  EXPECT_EQ(normalize_absolute(std::string("/a\0b", 4)), std::nullopt);
  EXPECT_TRUE(has_dotdot("/sys/../etc"));
  EXPECT_FALSE(has_dotdot("/sys/..x"));
  EXPECT_EQ(parent_dir("/a/b"), "/a");
  EXPECT_EQ(parent_dir("/"), "/");
  EXPECT_EQ(join_path("/a", "b"), "/a/b");
}

TEST(Vocabulary, NormalAbsolutePathsAreTheOnesNormalisingKeeps) {
  for (const char* p : {"/", "/a", "/a/b.c", "/sys/bus/pci/devices/0000:01:00.0", "/a/...", "/.a"})
    EXPECT_TRUE(is_normal_absolute(p)) << p;
  for (const char* p : {"", "a", "//", "/a/", "/a//b", "/./a", "/a/.", "/a/../b", "/.."})
    EXPECT_FALSE(is_normal_absolute(p)) << p;
  EXPECT_FALSE(is_normal_absolute(std::string("/a\0b", 4)));
  for (const char* p : {"/", "/a", "/a/", "/a//b", "/./a", "/a/..", "/x/../y/./z"})
    EXPECT_EQ(is_normal_absolute(p), normalize_absolute(p) == std::string(p)) << p;
}

TEST(Vocabulary, NextLineGivesTheLinesSplitLinesGives) {
  for (const char* text : {"", "\n", "a", "a\n", "a\r\nb\n", "a\n\n", "\n\nb", "x\r", "a\nb"}) {
    std::vector<std::string_view> lines;
    for (std::size_t pos = 0; auto line = next_line(text, pos);) lines.push_back(*line);
    EXPECT_EQ(lines, split_lines(text)) << text;
  }
}

TEST(Vocabulary, TextHelpersAreTotal) {
  EXPECT_EQ(parse_u64("18446744073709551615"), 18446744073709551615ull);
  EXPECT_EQ(parse_u64("18446744073709551616"), std::nullopt);
  EXPECT_EQ(parse_hex("0x10de"), 0x10deu);
  EXPECT_EQ(split_lines("a\r\nb\n").size(), 2u);
  EXPECT_EQ(printable_line("\x1b[1mGPU\x1b[0m\t 0 \xff"), "GPU 0 ?");
}

}  // namespace
}  // namespace hwaccel
