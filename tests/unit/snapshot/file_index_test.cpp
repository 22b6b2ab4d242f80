#include "src/snapshot/file_index.h"

#include <gtest/gtest.h>

#include <string>

#include "src/host/snapshot_host.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

TEST(FileIndex, HashGrowsWithThePath) {
  const std::string path = "/sys/bus/pci/devices/0000:01:00.0/vendor";
  std::uint64_t grown = FileIndex::empty();
  for (char c : path) grown = FileIndex::extend(grown, std::string_view(&c, 1));
  EXPECT_EQ(grown, FileIndex::extend(FileIndex::empty(), path));
  EXPECT_EQ(FileIndex::extend(FileIndex::extend(FileIndex::empty(), "/sys/bus"), "/pci"),
            FileIndex::extend(FileIndex::empty(), "/sys/bus/pci"));
  EXPECT_EQ(FileIndex::extend(FileIndex::empty(), ""), FileIndex::empty());
}

TEST(FileIndex, AnEmptyIndexFindsNothing) {
  FileIndex none;
  EXPECT_EQ(none.find("/"), nullptr);
  FileIndex::Files files;
  FileIndex empty(files);
  EXPECT_EQ(empty.find("/proc/cpuinfo"), nullptr);
  EXPECT_EQ(empty.find(""), nullptr);
}

TEST(FileIndex, FindsExactlyTheMapsKeys) {
  FileIndex::Files files;
  files["/"] = FileEntry::of_dir({"proc"});
  files["/proc/cpuinfo"] = FileEntry::of_content("processor\t: 0\n");
  files["/proc/meminfo"] = FileEntry::of_absent();
  files["/sys/bus/pci/devices/0000:01:00.0"] = FileEntry::of_link("../../../devices/x");
  FileIndex index(files);
  for (const auto& [path, entry] : files) EXPECT_EQ(index.find(path), &entry) << path;
  // Exact paths only: no normalising, no prefixes, no trailing slash.
  for (const char* missing : {"", "/proc", "/proc/", "/proc/cpuinfo/", "//proc/cpuinfo",
                              "/proc/./cpuinfo", "/proc/cpuinf", "/proc/cpuinfoo", "proc/cpuinfo",
                              "/sys/bus/pci/devices/0000:01:00.0/vendor"})
    EXPECT_EQ(index.find(missing), nullptr) << missing;
}

TEST(FileIndex, ManyPathsEachFoundAtItsOwnEntry) {
  // Past several doublings of the table, with names that share long prefixes.
  FileIndex::Files files;
  for (int i = 0; i < 5000; ++i)
    files["/sys/devices/pci0000:00/0000:00:01.0/" + std::to_string(i)] =
        FileEntry::of_content(std::to_string(i));
  FileIndex index(files);
  for (const auto& [path, entry] : files) ASSERT_EQ(index.find(path), &entry) << path;
  EXPECT_EQ(index.find("/sys/devices/pci0000:00/0000:00:01.0/5000"), nullptr);
  EXPECT_EQ(index.find("/sys/devices/pci0000:00/0000:00:01.0/"), nullptr);
}

// Every path of every fixture host is found at the map's own entry, and every
// path with a trailing slash, a doubled slash or a name cut short is not: the
// index only ever answers for the exact key the ordered map holds.
TEST(FileIndex, AgreesWithTheMapOnEveryFixturePath) {
  int paths = 0;
  for (const auto& name : testing::fixture_host_names()) {
    auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + name + ".yaml"));
    ASSERT_TRUE(loaded.snapshot) << name;
    const auto& files = loaded.snapshot->files;
    FileIndex index(files);
    for (const auto& [path, entry] : files) {
      ++paths;
      ASSERT_EQ(index.find(path), &entry) << name << ": " << path;
      for (const std::string& other :
           {path + "/", "/" + path, path + "x", path.substr(0, path.size() - 1)}) {
        auto it = files.find(other);
        EXPECT_EQ(index.find(other), it == files.end() ? nullptr : &it->second)
            << name << ": " << other;
      }
    }
  }
  EXPECT_GT(paths, 1000);
}

}  // namespace
}  // namespace hwaccel
