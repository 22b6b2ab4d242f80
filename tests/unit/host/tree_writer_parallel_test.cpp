// write_tree_parallel (the tree cache's writer, issue 37): the same tree as the
// sequential write_tree, the failing entry of lowest index reported, and a link
// planted in a folder between the folder pass and the files refused.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "src/host/tree_writer.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;
using Kind = PlannedEntry::Kind;

class TreeWriterParallel : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    base_ = make_private_temp_dir("tree-writer-parallel-test-", error);
    ASSERT_FALSE(base_.empty()) << error;
    canary_ = base_ + "/canary";
    fs::create_directory(canary_);
  }
  void TearDown() override { EXPECT_EQ(remove_tree(base_), ""); }

  // Every entry below `root`: path, type, mode, link count, size, bytes (where
  // readable) or link target; sorted.
  static std::string listing(const std::string& root) {
    std::vector<std::string> lines;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
         ++it) {
      const std::string path = it->path().string();
      struct stat st {};
      EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
      std::ostringstream line;
      line << path.substr(root.size()) << " " << std::oct << (st.st_mode & 0177777) << std::dec
           << " nlink " << st.st_nlink << " size " << st.st_size;
      if (S_ISLNK(st.st_mode)) line << " -> " << fs::read_symlink(path).string();
      if (S_ISREG(st.st_mode) && (st.st_mode & 0400) != 0) {
        std::ifstream in(path, std::ios::binary);
        line << " bytes " << std::string(std::istreambuf_iterator<char>(in), {});
      }
      lines.push_back(line.str());
    }
    std::sort(lines.begin(), lines.end());
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
  }

  std::string base_, canary_;
};

// A few thousand entries: folders two deep with odd modes (set before or after
// their files), files with odd modes and sizes, links relative and absolute.
TreePlan generated_plan() {
  TreePlan plan;
  const unsigned file_modes[] = {0644, 0600, 0400, 0000, 0755, 0640, 0444, 0711};
  const unsigned dir_modes[] = {0700, 0750, 0711, 0755, 0777};
  std::size_t n = 0;
  for (int d = 0; d < 40; ++d) {
    const std::string top = "/d" + std::to_string(d);
    if (d % 3 == 0) plan.entries.push_back({Kind::dir, top, "", "", dir_modes[d % 5]});
    for (int s = 0; s < 3; ++s) {
      const std::string sub = top + "/s" + std::to_string(s);
      if (s == 1) plan.entries.push_back({Kind::dir, sub, "", "", dir_modes[(d + s) % 5]});
      for (int f = 0; f < 16; ++f, ++n) {
        std::string bytes;
        for (std::size_t r = 0; r < n % 7; ++r) bytes += "entry " + std::to_string(n) + "\n";
        plan.entries.push_back(
            {Kind::file, sub + "/f" + std::to_string(f), bytes, "", file_modes[n % 8]});
      }
      plan.entries.push_back({Kind::link, sub + "/up", "", "../s0/f0", 0777});
      plan.entries.push_back({Kind::link, sub + "/abs", "", "/nowhere/" + sub, 0777});
    }
    // A folder's mode set after its files were written (sequentially).
    if (d % 3 == 1) plan.entries.push_back({Kind::dir, top, "", "", dir_modes[d % 5]});
  }
  return plan;
}

TEST_F(TreeWriterParallel, WritesTheSequentialWritersTreeUnderAnyUmask) {
  const TreePlan plan = generated_plan();
  ASSERT_GE(plan.entries.size(), kParallelFrom);
  for (mode_t mask : {mode_t{022}, mode_t{077}}) {
    const mode_t old = ::umask(mask);
    const std::string seq = base_ + "/seq" + std::to_string(mask);
    const std::string expected = write_tree(plan, seq);
    std::string got[3];
    int parallel_runs = 0;
    for (unsigned threads : {2u, 3u, 4u}) {
      const std::string par = base_ + "/par" + std::to_string(mask) + "-" + std::to_string(threads);
      got[threads - 2] = write_tree_parallel(plan, par, threads, [&] { ++parallel_runs; });
      got[threads - 2] += "\n" + listing(par);
    }
    ::umask(old);
    ASSERT_EQ(expected, "");
    EXPECT_EQ(parallel_runs, 3);  // the plan is one the threads write
    const std::string want = "\n" + listing(seq);
    for (const auto& g : got) EXPECT_EQ(g, want) << "umask " << std::oct << mask;
  }
}

// Two files of two stretches fail (a file is there already): the lower one is
// named, whichever thread failed first, with the sequential writer's message.
TEST_F(TreeWriterParallel, TheFailingEntryOfLowestIndexIsReported) {
  const TreePlan plan = generated_plan();
  std::size_t low = 0, high = 0;
  for (std::size_t i = 0; i < plan.entries.size(); ++i) {
    if (plan.entries[i].path == "/d5/s1/f3") low = i;
    if (plan.entries[i].path == "/d35/s2/f7") high = i;
  }
  ASSERT_LT(low, high);
  for (int round = 0; round < 3; ++round) {
    const std::string root = base_ + "/tree" + std::to_string(round);
    auto occupy = [&] {
      for (std::size_t i : {high, low}) std::ofstream(root + plan.entries[i].path) << "there";
    };
    const std::string why = write_tree_parallel(plan, root, 2 + round % 3, occupy);
    EXPECT_EQ(why, "cannot create " + root + "/d5/s1/f3: File exists") << "round " << round;
  }
  // The sequential writer's message for that entry, for the record.
  const std::string root = base_ + "/seq";
  const std::string why = write_tree(plan, root, [&](const std::string& path) {
    if (path == "/d5/s1/f3") std::ofstream(root + path) << "there";
  });
  EXPECT_EQ(why, "cannot create " + root + "/d5/s1/f3: File exists");
}

// A folder made by the folder pass, replaced by a link before the files are
// written: the threads open every folder with O_NOFOLLOW, nothing lands outside.
TEST_F(TreeWriterParallel, ALinkPlantedInAFolderIsRefused) {
  const TreePlan plan = generated_plan();
  const std::string root = base_ + "/tree";
  auto plant = [&] {
    fs::remove_all(root + "/d30/s2");
    fs::create_directory_symlink(canary_, root + "/d30/s2");
  };
  const std::string why = write_tree_parallel(plan, root, 2, plant);
  EXPECT_EQ(why, "cannot create " + root + "/d30/s2/f0: the tree's /d30/s2 is a symbolic link" +
                     " (never followed)");
  EXPECT_TRUE(fs::is_empty(canary_));
}

// Small plans, and plans whose order matters, are written in order by write_tree.
TEST_F(TreeWriterParallel, SmallOrOrderBoundPlansAreWrittenInOrder) {
  int parallel_runs = 0;
  auto count = [&] { ++parallel_runs; };
  TreePlan small;
  small.entries.push_back({Kind::file, "/a/b", "1", "", 0644});
  EXPECT_EQ(write_tree_parallel(small, base_ + "/small", 2, count), "");
  EXPECT_TRUE(fs::exists(base_ + "/small/a/b"));

  TreePlan twice = generated_plan();  // a folder's files in two stretches
  twice.entries.push_back({Kind::file, "/d0/s0/f0", "again", "", 0644});
  EXPECT_EQ(write_tree_parallel(twice, base_ + "/twice", 2, count),
            "cannot create " + base_ + "/twice/d0/s0/f0: File exists");

  TreePlan shut = generated_plan();  // a folder we could not write in once its mode is set
  shut.entries.insert(shut.entries.begin(), {Kind::dir, "/d1", "", "", 0555});
  const mode_t old = ::umask(022);
  const std::string why = write_tree_parallel(shut, base_ + "/shut", 2, count);
  ::umask(old);
  if (::geteuid() != 0) {
    EXPECT_NE(why.find("Permission denied"), std::string::npos) << why;
  }

  TreePlan file_and_folder = generated_plan();  // a file where a folder is planned
  file_and_folder.entries.insert(file_and_folder.entries.begin(),
                                 {Kind::file, "/d7", "x", "", 0644});
  EXPECT_NE(write_tree_parallel(file_and_folder, base_ + "/both", 2, count)
                .find("the tree's /d7 is not a folder"),
            std::string::npos);
  EXPECT_EQ(parallel_runs, 0);
}

}  // namespace
}  // namespace hwaccel
