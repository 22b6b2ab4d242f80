#include "src/host/inside_tree.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "src/host/live_host.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCanary = "canary-7f3a91-outside-the-tree";

// A folder `tree` beside a canary file outside it, with links that try to get
// out and links that stay in. Run twice: with openat2 (the kernel resolves),
// and with the step-by-step walk (what a kernel without openat2 gets).
class InsideTreeTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    set_openat2_enabled(GetParam());
    std::string pattern = (fs::temp_directory_path() / "hwaccel-inside-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    top_ = fs::canonical(pattern);
    tree_ = top_ / "tree";
    fs::create_directories(tree_ / "devices/card0");
    fs::create_directories(tree_ / "class");
    fs::create_directories(top_ / "outside");
    std::ofstream(top_ / "outside/secret") << kCanary;
    std::ofstream(tree_ / "devices/card0/vendor") << "0x10de\n";
    link("../devices/card0", "class/card0");                        // relative, inside
    link(tree_.string() + "/devices/card0/vendor", "absolute_in");  // absolute, back inside
    link(top_.string() + "/outside/secret", "absolute_out");
    link("../outside/secret", "relative_out");
    link("../outside", "dir_out");
    link("class/../../outside/secret", "dotdot_out");
    link("/proc/self/root" + top_.string() + "/outside/secret", "magic_out");
    link("loop_b", "loop_a");
    link("loop_a", "loop_b");
    link("chain_2", "chain_1");
    link("absolute_out", "chain_2");
  }
  void TearDown() override {
    set_openat2_enabled(true);
    fs::remove_all(top_);
  }

  void link(const std::string& target, const std::string& at) {
    fs::create_symlink(target, tree_ / at);
  }
  std::string in(const std::string& rel) const { return (tree_ / rel).string(); }
  std::string read(InsideTree& tree, const std::string& rel) {
    auto opened = open_regular_inside(tree, in(rel));
    if (!opened) return "error " + opened.error().errno_name() + ": " + opened.error().message;
    std::string text(256, '\0');
    ssize_t n = ::read(opened->fd, text.data(), text.size());
    ::close(opened->fd);
    text.resize(n > 0 ? std::size_t(n) : 0);
    return text;
  }

  fs::path top_, tree_;
};

TEST_P(InsideTreeTest, LinksThatStayInsideAreFollowed) {
  InsideTree tree(tree_.string());
  EXPECT_EQ(read(tree, "class/card0/vendor"), "0x10de\n");
  EXPECT_EQ(read(tree, "absolute_in"), "0x10de\n");
  EXPECT_EQ(read(tree, "devices/card0/../card0/vendor"), "0x10de\n");
}

// A rename anywhere on the machine during a lookup through ".." makes openat2
// answer EAGAIN ("retry"); that was returned as the read's error, and under load
// (other runs mounting and renaming) a device's sysfs files vanished for a moment.
TEST_P(InsideTreeTest, RenamesElsewhereNeverFailAReadThroughDotDot) {
  InsideTree tree(tree_.string());
  std::atomic<bool> stop{false};
  std::thread renamer([&] {
    const std::string a = (top_ / "outside/a").string(), b = (top_ / "outside/b").string();
    std::ofstream(a) << "x";
    while (!stop) {
      ::rename(a.c_str(), b.c_str());
      ::rename(b.c_str(), a.c_str());
    }
  });
  int wrong = 0;
  std::string last;
  for (int i = 0; i < 3000; ++i) {
    std::string got = read(tree, "class/card0/vendor");
    if (got != "0x10de\n") ++wrong, last = got;
  }
  stop = true;
  renamer.join();
  EXPECT_EQ(wrong, 0) << last;
}

TEST_P(InsideTreeTest, EveryWayOutIsRefusedWithEXDEVNamingThePath) {
  InsideTree tree(tree_.string(), "TREE");
  for (const char* rel : {"absolute_out", "relative_out", "dir_out/secret", "dotdot_out",
                          "magic_out", "chain_1", "../outside/secret"}) {
    const std::string got = read(tree, rel);
    EXPECT_EQ(got.find(kCanary), std::string::npos) << rel;
    EXPECT_EQ(got.rfind("error EXDEV: " + in(rel) + ": ", 0), 0u) << rel << ": " << got;
    EXPECT_NE(got.find("leads outside TREE"), std::string::npos) << rel << ": " << got;
  }
  EXPECT_NE(read(tree, "absolute_out").find("a link leads outside"), std::string::npos);
}

TEST_P(InsideTreeTest, APathSpelledOutsideTheTreeIsRefused) {
  InsideTree tree(tree_.string());
  auto fd = tree.open((top_ / "outside/secret").string(), O_RDONLY);
  ASSERT_FALSE(fd.ok());
  EXPECT_EQ(fd.error().code, EXDEV);
  EXPECT_FALSE(tree.holds((top_ / "tree2").string()));
  EXPECT_TRUE(tree.holds(tree_.string()));
}

TEST_P(InsideTreeTest, LoopsAndMissingFilesKeepTheirErrno) {
  InsideTree tree(tree_.string());
  EXPECT_EQ(tree.open(in("loop_a"), O_RDONLY).error().code, ELOOP);
  EXPECT_EQ(tree.open(in("nothing"), O_RDONLY).error().code, ENOENT);
  EXPECT_EQ(tree.open(in("devices/card0/vendor/x"), O_RDONLY).error().code, ENOTDIR);
}

TEST_P(InsideTreeTest, ALinkItselfIsReadWithoutFollowingIt) {
  InsideTree tree(tree_.string());
  auto fd = tree.open(in("absolute_out"), O_PATH | O_NOFOLLOW, /*follow_last=*/false);
  ASSERT_TRUE(fd.ok()) << fd.error().message;
  auto target = read_link_of(*fd, "absolute_out");
  ASSERT_TRUE(target.ok()) << target.error().message;
  EXPECT_EQ(*target, top_.string() + "/outside/secret");
}

// The tree's own path may go through a link (the user's choice); below it, no.
TEST_P(InsideTreeTest, TheTreesOwnPathMayBeALink) {
  fs::create_symlink(tree_, top_ / "tree_link");
  InsideTree tree((top_ / "tree_link").string());
  auto fd = tree.open((top_ / "tree_link/class/card0/vendor").string(), O_RDONLY);
  EXPECT_TRUE(fd.ok()) << fd.error().message;
  auto out = tree.open((top_ / "tree_link/relative_out").string(), O_RDONLY);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, EXDEV);
}

TEST_P(InsideTreeTest, ADeviceNodeOrFifoIsNeverOpenedForReading) {
  ASSERT_EQ(::mkfifo(in("fifo").c_str(), 0600), 0);
  InsideTree tree(tree_.string());
  const std::string got = read(tree, "fifo");  // would hang if opened blocking
  EXPECT_NE(got.find("a FIFO, not a regular file"), std::string::npos) << got;
  EXPECT_EQ(read(tree, "devices"), "error EISDIR: " + in("devices") + ": Is a directory");
}

// A LiveHost confined to a folder: every Host call stays in it.
TEST_P(InsideTreeTest, AConfinedLiveHostNeverReadsOutside) {
  LiveHostOptions options;
  options.confine = tree_.string();
  LiveHost host(options);
  EXPECT_EQ(*host.read(in("class/card0/vendor")), "0x10de\n");
  auto head = host.read_head(in("class/card0/vendor"), 4);
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(*head, "0x10");
  for (const char* rel : {"absolute_out", "relative_out", "dotdot_out", "magic_out"}) {
    auto r = host.read(in(rel));
    ASSERT_FALSE(r.ok()) << rel;
    EXPECT_EQ(r.error().code, EXDEV) << rel;
    EXPECT_EQ(r.error().message.find(kCanary), std::string::npos);
    auto h = host.read_head(in(rel), 100);
    ASSERT_FALSE(h.ok()) << rel;
    EXPECT_EQ(h.error().code, EXDEV) << rel;
  }
  EXPECT_EQ(host.stat(in("dir_out")).error().code, EXDEV);
  EXPECT_EQ(host.list(in("dir_out")).error().code, EXDEV);
  EXPECT_EQ(*host.stat(in("class/card0")), FileKind::directory);
  EXPECT_EQ(*host.readlink(in("class/card0")), "../devices/card0");
  EXPECT_EQ(host.readlink(in("dir_out/secret")).error().code, EXDEV);
  auto names = host.list(in("class"));
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, std::vector<std::string>{"card0"});
  EXPECT_EQ(host.read((top_ / "outside/secret").string()).error().code, EXDEV);
}

INSTANTIATE_TEST_SUITE_P(Resolution, InsideTreeTest, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "openat2" : "walk"; });

// The walk on its own: an absolute link may cross the tree's parents on its
// way back in, and nothing else.
TEST(ResolveBeneath, AbsoluteLinksMayOnlyCrossTheTreesParents) {
  std::string pattern = (fs::temp_directory_path() / "hwaccel-beneath-XXXXXX").string();
  ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
  const fs::path top = fs::canonical(pattern);
  fs::create_directories(top / "a/tree/x");
  fs::create_directories(top / "a/other");
  fs::create_symlink(top / "a/tree/x", top / "a/tree/back_in");
  fs::create_symlink(top / "a/other", top / "a/tree/sideways");
  const std::string tree = (top / "a/tree").string();
  auto in = resolve_beneath({tree}, tree + "/back_in", true, "T");
  ASSERT_TRUE(in.ok()) << in.error().message;
  EXPECT_EQ(*in, tree + "/x");
  auto out = resolve_beneath({tree}, tree + "/sideways", true, "T");
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, EXDEV);
  EXPECT_EQ(out.error().message, tree + "/sideways: a link leads outside T (not followed)");
  // Not followed, the last link is the answer itself.
  auto kept = resolve_beneath({tree}, tree + "/sideways", false, "T");
  // With a second tree a link may lead into, it does.
  auto both = resolve_beneath({tree, (top / "a/other").string()}, tree + "/sideways", true, "T");
  ASSERT_TRUE(both.ok()) << both.error().message;
  EXPECT_EQ(*both, (top / "a/other").string());
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(*kept, tree + "/sideways");
  fs::remove_all(top);
}

}  // namespace
}  // namespace hwaccel
