#include "src/host/cpuinfo_keys.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace hwaccel {
namespace {

using Kind = CpuinfoKey::Kind;

TEST(CpuinfoKeys, FindsThePlacingKeysAndTheBlankLinesInOrder) {
  const std::string text =
      "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nphysical id\t: 1\n"
      "  core id\t: 7\ncpu cores\t: 56\npower management:\n\n"
      "processor : 1\ncore id\nphysical id: -1\n \t\nprocessors\t: 9\n";
  const auto keys = find_cpuinfo_keys(text);
  ASSERT_EQ(keys.size(), 7u);
  EXPECT_EQ(keys[0].kind, Kind::processor);
  EXPECT_EQ(keys[0].value, " 0");
  EXPECT_EQ(keys[1].kind, Kind::package);
  EXPECT_EQ(keys[1].value, " 1");
  EXPECT_EQ(keys[2].kind, Kind::core);
  EXPECT_EQ(keys[2].value, " 7");
  EXPECT_EQ(keys[3].kind, Kind::blank);
  EXPECT_EQ(keys[4].kind, Kind::processor);
  EXPECT_EQ(keys[4].value, " 1");
  // "core id" without a colon and "processors" are not keys.
  EXPECT_EQ(keys[5].kind, Kind::package);
  EXPECT_EQ(keys[5].value, " -1");
  EXPECT_EQ(keys[6].kind, Kind::blank);
  EXPECT_TRUE(find_cpuinfo_keys("").empty());
}

struct CountedTree {
  std::map<std::string, std::string> files;
  mutable int reads = 0;
  TreeFiles view() const {
    TreeFiles t;
    t.read = [this](const std::string& p) -> std::optional<FileText> {
      ++reads;
      auto it = files.find(p);
      if (it == files.end()) return std::nullopt;
      return FileText(it->second);  // owned, as a copy: the keys must point into the kept one
    };
    t.list = [](const std::string&) { return std::vector<std::string>{}; };
    return t;
  }
};

TEST(CpuinfoKeys, ReadsTheFileOnceForAllItsReaders) {
  CountedTree tree;
  tree.files["/proc/cpuinfo"] = "processor\t: 0\n\nprocessor\t: 1\n\nprocessor\t: 3\n";
  const TreeFiles files = tree.view();
  CpuinfoKeys shared(files);
  std::string source;
  EXPECT_EQ(online_cpus(files, source, &shared), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(source, "/proc/cpuinfo processor lines");
  const int reads = tree.reads;
  const auto* keys = shared.get();
  ASSERT_NE(keys, nullptr);
  EXPECT_EQ(keys->size(), 5u);
  EXPECT_EQ(keys->back().value, " 3");
  EXPECT_EQ(tree.reads, reads);  // not read again
  // Without a shared one, online_cpus reads its own.
  EXPECT_EQ(online_cpus(files, source), (std::vector<int>{0, 1, 3}));
}

TEST(CpuinfoKeys, NullWithoutAFile) {
  CountedTree tree;
  const TreeFiles files = tree.view();
  CpuinfoKeys shared(files);
  EXPECT_EQ(shared.get(), nullptr);
  EXPECT_EQ(shared.get(), nullptr);
  EXPECT_EQ(tree.reads, 1);
}

}  // namespace
}  // namespace hwaccel
