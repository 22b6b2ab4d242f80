#include "src/snapshot/file_index.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

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
    EXPECT_FALSE(index.gave_up()) << name;
    EXPECT_LE(index.longest_displacement(), FileIndex::kMaxDisplacement) << name;
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

// `count` paths under /crowd/ whose FNV-1a hashes all end in the same 16 bits,
// as a hostile snapshot would hold them. The low 16 bits of FNV-1a depend only
// on the low 16 bits of the state and the bytes, and the prime is odd, so the
// last byte that lands a state on the target is solved for, not searched: of
// the two letters before it, those that bring the state's upper byte to the
// target's (one in 256) leave the last byte fixed.
std::vector<std::string> crowded_paths(int count) {
  constexpr std::uint16_t kTarget = 0x5a17;
  constexpr std::uint16_t kPrime = 0x01b3;  // the FNV-1a 64 prime's low 16 bits
  std::uint16_t inverse = 1;
  while (std::uint16_t(inverse * kPrime) != 1) ++inverse;
  const std::uint16_t before_last = std::uint16_t(kTarget * inverse);  // state ^ byte
  const std::string letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::vector<std::string> paths;
  for (int i = 0; int(paths.size()) < count; ++i) {
    const std::string prefix = "/crowd/" + std::to_string(i) + "-";
    const std::uint64_t start = FileIndex::extend(FileIndex::empty(), prefix);
    bool found = false;
    for (char a : letters) {
      for (char b : letters) {
        const std::string two{a, b};
        const std::uint64_t h = FileIndex::extend(start, two);
        if ((h & 0xff00) != (before_last & 0xff00)) continue;
        const char last = char((h ^ before_last) & 0xff);
        if (last == '/' || last == '\0' || last == '.') continue;
        paths.push_back(prefix + two + last);
        found = true;
        break;
      }
      if (found) break;
    }
  }
  for (const auto& path : paths) {
    EXPECT_EQ(FileIndex::extend(FileIndex::empty(), path) & 0xffff, kTarget) << path;
  }
  return paths;
}

TEST(FileIndex, AFewCrowdedPathsAreStillIndexed) {
  // Crowded, but within the bound: every path is found, each lookup stops
  // after the longest displacement, and a missing path is not found.
  FileIndex::Files files;
  for (const auto& path : crowded_paths(20)) files[path] = FileEntry::of_content(path);
  FileIndex index(files);
  EXPECT_FALSE(index.gave_up());
  EXPECT_GE(index.longest_displacement(), 19u);
  for (const auto& [path, entry] : files) EXPECT_EQ(index.find(path), &entry) << path;
  EXPECT_EQ(index.find("/crowd/0-"), nullptr);
  EXPECT_EQ(index.find("/crowd"), nullptr);
}

// A hostile snapshot of thousands of paths that share their low 16 hash bits
// would make the build quadratic and every lookup a walk of the whole run: the
// index gives up after kMaxDisplacement, and SnapshotHost answers from the
// ordered map instead, every path found (in a few milliseconds: the build of
// the index stops at the bound).
TEST(FileIndex, GivesUpOnHashesThatShareTheirLowBits) {
  const std::vector<std::string> paths = crowded_paths(4000);
  ASSERT_EQ(paths.size(), 4000u);
  Snapshot snapshot;
  for (const auto& path : paths) snapshot.files[path] = FileEntry::of_content(path);
  FileIndex index(snapshot.files);
  EXPECT_TRUE(index.gave_up());
  EXPECT_EQ(index.longest_displacement(), 0u);
  EXPECT_EQ(index.find(paths.front()), nullptr);
  SnapshotHost host(std::move(snapshot));
  for (const auto& path : paths) {
    auto text = host.read(path);
    ASSERT_TRUE(text) << path;
    EXPECT_EQ(*text, path);
  }
  EXPECT_FALSE(host.read("/crowd/0-"));
  auto listed = host.list("/crowd");
  ASSERT_TRUE(listed);
  EXPECT_EQ(listed->size(), paths.size());
}

}  // namespace
}  // namespace hwaccel
