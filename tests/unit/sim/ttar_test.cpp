#include "sim/ttar.h"

#include <gtest/gtest.h>

#include "sim/tree_import.h"
#include "src/host/snapshot_host.h"
#include "src/probe/pci_bus.h"
#include "src/probe/proc_meminfo.h"
#include "tests/support/test_support.h"

namespace hwaccel::sim {
namespace {

constexpr std::string_view kSmall =
    "# Archive created by ttar -c -f x.ttar fixtures/\n"
    "Directory: fixtures\n"
    "Mode: 755\n"
    "# ttar - - - - - -\n"
    "Path: fixtures/proc/26231/cmdline\n"
    "Lines: 1\n"
    "vimNULLBYTEtest.goNULLBYTEEOF\n"
    "Mode: 644\n"
    "# ttar - - - - - -\n"
    "Path: fixtures/proc/meminfo\n"
    "Lines: 2\n"
    "MemTotal:       15666184 kB\n"
    "MemFree:          440324 kB\n"
    "Mode: 644\n"
    "# ttar - - - - - -\n"
    "Path: fixtures/proc/empty\n"
    "Lines: 0\n"
    "Mode: 644\n"
    "# ttar - - - - - -\n"
    "Path: fixtures/proc/self\n"
    "SymlinkTo: 26231\n"
    "# ttar - - - - - -\n"
    "Directory: fixtures/sys/class/empty\n"
    "Mode: 755\n";

TEST(Ttar, ParsesFilesLinksFoldersNulBytesAndMissingNewlines) {
  TtarArchive a = parse_ttar(kSmall);
  ASSERT_EQ(a.error, "");
  ASSERT_EQ(a.entries.size(), 6u);
  EXPECT_EQ(a.entries[1].bytes, std::string("vim\0test.go\0", 12));
  EXPECT_EQ(a.entries[2].bytes, "MemTotal:       15666184 kB\nMemFree:          440324 kB\n");
  EXPECT_EQ(a.entries[3].bytes, "");
  EXPECT_EQ(a.entries[4].kind, TtarEntry::Kind::link);
  EXPECT_EQ(a.entries[4].target, "26231");
  EXPECT_EQ(ttar_common_prefix(a.entries), "fixtures");
}

TEST(Ttar, RefusesBrokenArchivesWithTheLine) {
  EXPECT_EQ(parse_ttar("Path: a\nLines: 3\nx\n").error, "line 2: fewer lines than Lines: says");
  EXPECT_EQ(parse_ttar("Path: a\nLines: x\n").error, "line 2: Lines: needs a number");
  EXPECT_EQ(parse_ttar("garbage\n").error, "line 1: expected Directory:, Path: or a # comment");
  EXPECT_EQ(parse_ttar("Path: a\nMode: 644\n").error,
            "line 2: expected Lines: or SymlinkTo: after Path:");
}

TEST(Ttar, ImportsThroughMemoryTree) {
  TtarArchive a = parse_ttar(kSmall);
  MemoryTree tree(a.entries, "fixtures");
  ImportResult r = import_tree(tree, {});
  ASSERT_EQ(r.error, "");
  const auto& files = r.snapshot.files;
  EXPECT_EQ(files.count("/proc/26231/cmdline"), 0u);  // a process: not the host
  EXPECT_EQ(files.at("/proc/self"), FileEntry::of_link("26231"));
  EXPECT_EQ(files.at("/proc/empty"), FileEntry::of_content(""));
  EXPECT_EQ(files.at("/sys/class/empty"), FileEntry::of_dir({}));
}

// The Prometheus procfs test tree: /proc/meminfo and an amdgpu card in sysfs.
TEST(Ttar, ImportsTheProcfsFixtures) {
  auto text = testing::slurp(testing::real_capture_path("procfs-fixtures.ttar"));
  if (!text) GTEST_FAIL() << "real captures not found at " << testing::real_capture_path("");
  TtarArchive a = parse_ttar(*text);
  ASSERT_EQ(a.error, "");
  MemoryTree tree(a.entries, ttar_common_prefix(a.entries));
  ImportResult r = import_tree(tree, {});
  ASSERT_EQ(r.error, "");
  SnapshotHost host(r.snapshot);
  EXPECT_EQ(parse_proc_meminfo(*host.read("/proc/meminfo")).total_bytes, 15666184ull * 1024);
  EXPECT_EQ(*host.read("/sys/class/drm/card0/device/vendor"), "0x1002\n");
}

}  // namespace
}  // namespace hwaccel::sim
