// open_in_tree: the path opened in one openat2(2) where it can be, the walk
// component by component where it cannot; either way never through a link, and
// the same answer and the same message naming the tree's path.
#include "src/host/tree_fd.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "src/host/tree_writer.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

class TreeFd : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    base_ = make_private_temp_dir("tree-fd-test-", error);
    ASSERT_FALSE(base_.empty()) << error;
    fs::create_directories(base_ + "/tree/proc/sys/kernel");
    std::ofstream(base_ + "/tree/proc/sys/kernel/osrelease") << "5.15.0\n";
    fs::create_directories(base_ + "/outside/kernel");
    std::ofstream(base_ + "/outside/kernel/osrelease") << "not the tree's\n";
    fs::create_directory_symlink(base_ + "/outside", base_ + "/tree/proc/link");
    fs::create_symlink(base_ + "/outside/kernel/osrelease", base_ + "/tree/proc/file-link");
    tree_ = Fd(::open((base_ + "/tree").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    ASSERT_TRUE(tree_.ok());
  }
  void TearDown() override { EXPECT_EQ(remove_tree(base_), ""); }

  // The inode `fd` is open on, to compare with the file at `path`.
  static bool same_file(const Fd& fd, const std::string& path) {
    struct stat a {
    }, b{};
    return fd.ok() && ::fstat(fd.get(), &a) == 0 && ::lstat(path.c_str(), &b) == 0 &&
           a.st_ino == b.st_ino && a.st_dev == b.st_dev;
  }

  std::string base_;
  Fd tree_;
};

TEST_F(TreeFd, OpensAFileOrAFolderDeepInTheTree) {
  std::string why;
  Fd file = open_in_tree(tree_.get(), "/proc/sys/kernel/osrelease", Walk::open, why);
  EXPECT_TRUE(same_file(file, base_ + "/tree/proc/sys/kernel/osrelease")) << why;
  Fd dir = open_in_tree(tree_.get(), "proc/sys", Walk::open, why);
  EXPECT_TRUE(same_file(dir, base_ + "/tree/proc/sys")) << why;
  EXPECT_EQ(why, "");
}

TEST_F(TreeFd, MakesMissingFoldersOnTheWay) {
  std::string why;
  Fd made = open_in_tree(tree_.get(), "/dev/shm/a/b", Walk::make_dirs, why);
  EXPECT_TRUE(same_file(made, base_ + "/tree/dev/shm/a/b")) << why;
  EXPECT_TRUE(fs::is_directory(base_ + "/tree/dev/shm/a/b"));
  // Already there: the same folder.
  Fd again = open_in_tree(tree_.get(), "/dev/shm/a/b", Walk::make_dirs, why);
  EXPECT_TRUE(same_file(again, base_ + "/tree/dev/shm/a/b")) << why;
}

TEST_F(TreeFd, NeverFollowsALinkOnTheWayOrAtTheEnd) {
  std::string why;
  EXPECT_FALSE(open_in_tree(tree_.get(), "/proc/link/kernel/osrelease", Walk::open, why).ok());
  EXPECT_EQ(why, "the tree's /proc/link is a symbolic link (never followed)");
  why.clear();
  EXPECT_FALSE(open_in_tree(tree_.get(), "/proc/file-link", Walk::open, why).ok());
  EXPECT_EQ(why, "the tree's /proc/file-link is a symbolic link (never followed)");
  why.clear();
  EXPECT_FALSE(open_in_tree(tree_.get(), "/proc/link/new", Walk::make_dirs, why).ok());
  EXPECT_EQ(why, "the tree's /proc/link is a symbolic link (never followed)");
  EXPECT_FALSE(fs::exists(base_ + "/outside/new"));
}

TEST_F(TreeFd, SaysWhatIsMissingOrNotAFolder) {
  std::string why;
  EXPECT_FALSE(open_in_tree(tree_.get(), "/proc/nothing/here", Walk::open, why).ok());
  EXPECT_EQ(why, "the tree's /proc/nothing: No such file or directory");
  why.clear();
  EXPECT_FALSE(open_in_tree(tree_.get(), "/proc/sys/kernel/osrelease/x", Walk::open, why).ok());
  EXPECT_EQ(why, "the tree's /proc/sys/kernel/osrelease is not a folder");
  why.clear();
  EXPECT_FALSE(open_in_tree(tree_.get(), "/proc/sys/kernel/osrelease", Walk::make_dirs, why).ok());
  EXPECT_EQ(why, "the tree's /proc/sys/kernel/osrelease is not a folder");
}

TEST_F(TreeFd, RefusesDotsByName) {
  std::string why;
  EXPECT_FALSE(open_in_tree(tree_.get(), "/proc/../proc/sys", Walk::open, why).ok());
  EXPECT_EQ(why, "the tree's /proc/..: not a plain path");
}

}  // namespace
}  // namespace hwaccel
