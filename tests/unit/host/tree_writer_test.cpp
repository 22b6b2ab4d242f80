// Issue 18, item 6: write_tree never follows a link out of the tree it writes,
// whether the plan has one, the target is one, or one is planted mid-write; it
// refuses a target that is not an empty folder of ours. A canary folder outside
// must stay empty.
#include "src/host/tree_writer.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <memory>

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

class TreeWriter : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    base_ = make_private_temp_dir("tree-writer-test-", error);
    ASSERT_FALSE(base_.empty()) << error;
    canary_ = base_ + "/canary";
    fs::create_directory(canary_);
  }
  void TearDown() override { EXPECT_EQ(remove_tree(base_), ""); }
  bool canary_untouched() const { return fs::is_empty(canary_); }

  static TreePlan plan(std::vector<PlannedEntry> entries) {
    return {std::move(entries), {}, {}, ""};
  }
  std::string base_, canary_;
};

using Kind = PlannedEntry::Kind;

TEST_F(TreeWriter, WritesFoldersFilesAndLinks) {
  const std::string root = base_ + "/new/tree";
  ASSERT_EQ(write_tree(plan({{Kind::dir, "/a", "", "", 0755},
                             {Kind::file, "/a/b/c", "bytes", "", 0600},
                             {Kind::link, "/a/l", "", "/elsewhere", 0777}}),
                       root),
            "");
  EXPECT_EQ(fs::file_size(root + "/a/b/c"), 5u);
  EXPECT_EQ(fs::status(root + "/a/b/c").permissions(),
            fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(fs::read_symlink(root + "/a/l"), "/elsewhere");
}

// The plan's own link, then entries below it: refused, nothing lands outside.
TEST_F(TreeWriter, NeverWritesThroughALinkInThePlan) {
  const std::string root = base_ + "/tree";
  std::string why = write_tree(plan({{Kind::link, "/proc/sys", "", canary_, 0777},
                                     {Kind::file, "/proc/sys/kernel/x", "1", "", 0644},
                                     {Kind::dir, "/proc/sys/d", "", "", 0755}}),
                               root);
  EXPECT_NE(why.find("/proc/sys is a symbolic link"), std::string::npos) << why;
  EXPECT_TRUE(canary_untouched());
}

TEST_F(TreeWriter, RefusesATargetThatIsALink) {
  const std::string link = base_ + "/link";
  fs::create_directory_symlink(canary_, link);
  std::string why = write_tree(plan({{Kind::file, "/x", "1", "", 0644}}), link);
  EXPECT_NE(why.find("not a folder (a symbolic link"), std::string::npos) << why;
  EXPECT_TRUE(canary_untouched());
  // A link as a folder on the way to the target is the user's own path: followed.
}

TEST_F(TreeWriter, RefusesANonEmptyOrForeignTarget) {
  const std::string full = base_ + "/full";
  fs::create_directory(full);
  fs::create_directory_symlink(canary_, full + "/planted");
  EXPECT_NE(write_tree(plan({{Kind::file, "/planted/x", "1", "", 0644}}), full)
                .find("not an empty folder"),
            std::string::npos);
  EXPECT_TRUE(canary_untouched());
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to make a folder another user owns";
  const std::string foreign = base_ + "/foreign";
  fs::create_directory(foreign);
  ASSERT_EQ(::chown(foreign.c_str(), 65534, 65534), 0);
  std::string why = write_tree(plan({{Kind::file, "/x", "1", "", 0644}}), foreign);
  EXPECT_NE(why.find("owned by another user (uid 65534)"), std::string::npos) << why;
  EXPECT_TRUE(fs::is_empty(foreign));
}

// Someone who can write the target plants a link where a folder was made a moment
// ago (the race of item 6): the next entry below it is refused, not written through.
TEST_F(TreeWriter, ALinkPlantedMidWriteIsNotFollowed) {
  const std::string root = base_ + "/tree";
  auto planted = [&](const std::string& path) {
    if (path != "/sys/b/file") return;
    fs::remove_all(root + "/sys/b");
    fs::create_directory_symlink(canary_, root + "/sys/b");
  };
  std::string why = write_tree(plan({{Kind::file, "/sys/a/file", "1", "", 0644},
                                     {Kind::dir, "/sys/b", "", "", 0755},
                                     {Kind::file, "/sys/b/file", "1", "", 0644}}),
                               root, planted);
  EXPECT_NE(why.find("/sys/b is a symbolic link"), std::string::npos) << why;
  EXPECT_TRUE(canary_untouched());
  // The same for a folder entry: mkdir's EEXIST on a link is no longer taken as done.
  const auto mode_before = fs::status(canary_).permissions();
  const std::string root2 = base_ + "/tree2";
  auto planted2 = [&](const std::string& path) {
    if (path == "/d") fs::create_directory_symlink(canary_, root2 + "/d");
  };
  why = write_tree(plan({{Kind::file, "/x", "1", "", 0644},
                         {Kind::dir, "/d", "", "", 0700},
                         {Kind::file, "/d/y", "1", "", 0644}}),
                   root2, planted2);
  EXPECT_NE(why.find("cannot mkdir " + root2 + "/d"), std::string::npos) << why;
  EXPECT_TRUE(canary_untouched());
  EXPECT_EQ(fs::status(canary_).permissions(), mode_before);  // not chmod-ed through the link
}

// A file is created with its mode and chmod-ed only where the umask took bits:
// the modes are the plan's whatever the umask; folders keep the umask, as before.
TEST_F(TreeWriter, ModesAreThePlansUnderAnyUmask) {
  const mode_t old = ::umask(077);
  const std::string root = base_ + "/tree";
  std::string why = write_tree(plan({{Kind::file, "/a/f", "x", "", 0644},
                                     {Kind::file, "/a/g", "", "", 0000},
                                     {Kind::file, "/a/h", "y", "", 0755},
                                     {Kind::dir, "/d", "", "", 0700}}),
                               root);
  ::umask(old);
  ASSERT_EQ(why, "");
  auto mode = [&](const std::string& p) {
    struct stat st {};
    EXPECT_EQ(::lstat((root + p).c_str(), &st), 0) << p;
    return st.st_mode & 07777;
  };
  EXPECT_EQ(mode("/a/f"), 0644u);
  EXPECT_EQ(mode("/a/g"), 0000u);
  EXPECT_EQ(mode("/a/h"), 0755u);
  EXPECT_EQ(mode("/a"), 0700u);  // a parent made on the way: 0755 less the umask
  EXPECT_EQ(mode("/d"), 0700u);
  EXPECT_EQ(fs::file_size(root + "/a/h"), 1u);
}

// Entries out of order: the folders kept open for the last one are left for
// another branch and come back, each file in its own folder.
TEST_F(TreeWriter, EntriesInAnyOrderLandInTheirFolders) {
  const std::string root = base_ + "/tree";
  ASSERT_EQ(write_tree(plan({{Kind::file, "/a/b/c/1", "1", "", 0644},
                             {Kind::file, "/a/x/2", "2", "", 0644},
                             {Kind::file, "/a/b/c/3", "3", "", 0644},
                             {Kind::file, "/4", "4", "", 0644},
                             {Kind::file, "/a/b/5", "5", "", 0644},
                             {Kind::link, "/a/b/c/l", "", "../5", 0777}}),
                       root),
            "");
  for (const auto* p : {"/a/b/c/1", "/a/x/2", "/a/b/c/3", "/4", "/a/b/5"})
    EXPECT_EQ(fs::file_size(root + p), 1u) << p;
  EXPECT_EQ(fs::read_symlink(root + "/a/b/c/l"), "../5");
}

// A file's bytes lent from storage the plan keeps are written as its own; a
// change to them makes a copy and leaves the lender alone.
TEST_F(TreeWriter, LentBytesAreWrittenAndAChangeCopiesThem) {
  auto store = std::make_shared<const std::string>("lent bytes\n");
  TreePlan p = plan({{Kind::file, "/f", PlannedBytes::lent(*store), "", 0644},
                     {Kind::file, "/g", PlannedBytes::lent(*store), "", 0644}});
  p.keep.push_back(store);
  p.entries[1].bytes += "and more\n";
  EXPECT_EQ(p.entries[0].bytes, "lent bytes\n");
  EXPECT_EQ(p.entries[1].bytes, "lent bytes\nand more\n");
  EXPECT_EQ(*store, "lent bytes\n");
  const std::string root = base_ + "/lent";
  ASSERT_EQ(write_tree(p, root), "");
  EXPECT_EQ(fs::file_size(root + "/f"), 11u);
  EXPECT_EQ(fs::file_size(root + "/g"), 20u);
}

TEST_F(TreeWriter, APlanWithAnErrorWritesNothing) {
  const std::string root = base_ + "/tree";
  TreePlan p = plan({{Kind::file, "/x", "1", "", 0644}});
  p.error = "tools: bad name";
  EXPECT_EQ(write_tree(p, root), "tools: bad name");
  EXPECT_FALSE(fs::exists(root));
}

}  // namespace
}  // namespace hwaccel
