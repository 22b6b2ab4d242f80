#include "src/host/root_path.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

// A tree laid out like "/" of another machine, with links that try to get out.
class RootPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "hwaccel-root-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
    fs::create_directories(root_ / "etc");
    fs::create_directories(root_ / "sys/devices/pci0000:00/0000:00:02.0/drm/card0");
    fs::create_directories(root_ / "sys/class/drm");
    std::ofstream(root_ / "etc/passwd") << "inside\n";
    link("../../devices/pci0000:00/0000:00:02.0/drm/card0", "sys/class/drm/card0");
    link("../../../../etc/passwd", "escape_relative");
    link("/etc/passwd", "escape_absolute");
    link("/etc", "etc_link");
    link("../../../..", "up_and_away");
    link("loop_b", "loop_a");
    link("loop_a", "loop_b");
  }
  void TearDown() override { fs::remove_all(root_); }

  void link(const std::string& target, const std::string& at) {
    std::error_code ignored;
    fs::create_symlink(target, root_ / at, ignored);
  }
  std::string under(const std::string& relative) const { return (root_ / relative).string(); }
  Result<std::string> resolve(std::string_view path, bool follow_last = true) const {
    return resolve_in_root(root_.string(), path, follow_last);
  }

  fs::path root_;
};

TEST_F(RootPathTest, PlainPathsMapUnderTheRoot) {
  auto r = resolve("/etc/passwd");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, under("etc/passwd"));
  EXPECT_EQ(*resolve("/"), root_.string());
  EXPECT_EQ(*resolve("//etc/./passwd"), under("etc/passwd"));
}

TEST_F(RootPathTest, RelativeLinksAreFollowedInside) {
  auto r = resolve("/sys/class/drm/card0");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, under("sys/devices/pci0000:00/0000:00:02.0/drm/card0"));
}

TEST_F(RootPathTest, DotDotInALinkTargetStopsAtTheRoot) {
  auto r = resolve("/escape_relative");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, under("etc/passwd"));
  EXPECT_EQ(*resolve("/up_and_away/etc/passwd"), under("etc/passwd"));
}

TEST_F(RootPathTest, DotDotInThePathStopsAtTheRoot) {
  EXPECT_EQ(*resolve("/../../../etc/passwd"), under("etc/passwd"));
  EXPECT_EQ(*resolve("/etc/../../.."), root_.string());
}

TEST_F(RootPathTest, AbsoluteLinkTargetsRestartAtTheRoot) {
  EXPECT_EQ(*resolve("/escape_absolute"), under("etc/passwd"));
  EXPECT_EQ(*resolve("/etc_link/passwd"), under("etc/passwd"));
}

TEST_F(RootPathTest, DotDotAfterALinkIsPhysical) {
  // card0 is .../0000:00:02.0/drm/card0, so card0/.. is that drm directory.
  EXPECT_EQ(*resolve("/sys/class/drm/card0/.."), under("sys/devices/pci0000:00/0000:00:02.0/drm"));
}

TEST_F(RootPathTest, LastComponentIsLeftAloneWhenNotFollowed) {
  EXPECT_EQ(*resolve("/escape_absolute", false), under("escape_absolute"));
  EXPECT_EQ(*resolve("/etc_link/passwd", false), under("etc/passwd"));
}

TEST_F(RootPathTest, LoopsEndInEloop) {
  auto r = resolve("/loop_a");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ELOOP);
}

TEST_F(RootPathTest, FortyLinksAreFollowedButNotFortyOne) {
  // l0 -> l1 -> ... -> l40 -> etc/passwd: from l0 that is 41 links, from l1 40.
  for (int i = 0; i < 40; ++i) link("l" + std::to_string(i + 1), "l" + std::to_string(i));
  link("etc/passwd", "l40");
  EXPECT_EQ(*resolve("/l1"), under("etc/passwd"));
  auto r = resolve("/l0");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ELOOP);
}

TEST_F(RootPathTest, MissingAndNotADirectory) {
  auto missing = resolve("/etc/shadow");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ENOENT);
  EXPECT_NE(missing.error().message.find("/etc/shadow"), std::string::npos);
  auto through_file = resolve("/etc/passwd/x");
  ASSERT_FALSE(through_file.ok());
  EXPECT_EQ(through_file.error().code, ENOTDIR);
  auto missing_parent = resolve("/nope/x", false);
  ASSERT_FALSE(missing_parent.ok());
  EXPECT_EQ(missing_parent.error().code, ENOENT);
}

TEST_F(RootPathTest, RelativeOrNulPathsAreEinval) {
  for (std::string_view bad : {std::string_view("etc/passwd"), std::string_view(""),
                               std::string_view("/etc\0passwd", 11)}) {
    auto r = resolve(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, EINVAL);
  }
}

TEST_F(RootPathTest, TrailingSlashesOnTheRootDoNotMatter) {
  EXPECT_EQ(*resolve_in_root(root_.string() + "//", "/etc/passwd", true), under("etc/passwd"));
}

TEST(RootPath, SlashAsRootIsTheRealTree) {
  EXPECT_EQ(*resolve_in_root("/", "/proc/self/../self", false), "/proc/self");
  EXPECT_EQ(*resolve_in_root("/", "/", true), "/");
}

TEST(RootPath, CheckHostPath) {
  EXPECT_FALSE(check_host_path("/proc/meminfo").has_value());
  ASSERT_TRUE(check_host_path("proc/meminfo").has_value());
  EXPECT_EQ(check_host_path("proc/meminfo")->code, EINVAL);
}

}  // namespace
}  // namespace hwaccel
