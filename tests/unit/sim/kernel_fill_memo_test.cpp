// Filler::remember_folders (sim/kernel_fill_parts.h): recorded() answers the
// same with the last folder remembered as without.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/kernel_fill_parts.h"

namespace hwaccel::sim {
namespace {

Snapshot memo_snapshot() {
  Snapshot s;
  s.files.emplace("/sys/a", FileEntry::of_dir({"b", "listed"}));
  s.files.emplace("/sys/a/b/f", FileEntry::of_content("1\n"));
  s.files.emplace("/sys/link", FileEntry::of_link("a"));
  s.files.emplace("/sys/file", FileEntry::of_content("x"));
  return s;
}

TEST(FillerMemo, RecordedAnswersAsWithoutIt) {
  const std::vector<std::string> paths = {
      "/sys/a/b/f",   "/sys/a/b/g",  "/sys/a/listed",   "/sys/a/unlisted",
      "/sys/a/b/c/d", "/sys/link/x", "/sys/link/x/y",   "/sys/file/x",
      "/sys/new/x",   "/sys/new/y",  "/sys/a/listed/z", "/sys/a/unlisted/z",
      "/proc/x",      "/x",          "/sys/a/b/g"};
  Snapshot plain = memo_snapshot(), remembered = memo_snapshot();
  FilledPaths f1, f2;
  Filler a(plain, f1), b(remembered, f2);
  RememberFolders on(b);
  for (const auto& p : paths) EXPECT_EQ(a.recorded(p), b.recorded(p)) << p;
}

// A file filled at the remembered folder (or above it) is seen at once.
TEST(FillerMemo, AFileAtTheRememberedFolderCounts) {
  Snapshot s = memo_snapshot();
  FilledPaths filled;
  Filler f(s, filled);
  RememberFolders on(f);
  EXPECT_FALSE(f.recorded("/sys/new/x"));
  f.file("/sys/new", "now a file\n", "test");
  EXPECT_TRUE(f.recorded("/sys/new/x"));
  EXPECT_FALSE(f.recorded("/sys/other/deep/x"));
  f.link("/sys/other", "a", "test");
  EXPECT_TRUE(f.recorded("/sys/other/deep/x"));
  f.file("/sys/other2/x", "1\n", "test");  // a file in the folder: others beside it are not
  EXPECT_FALSE(f.recorded("/sys/other2/y"));
  EXPECT_TRUE(f.recorded("/sys/other2/x"));
}

// file() never replaces what the snapshot records, and adds the rest once.
TEST(FillerMemo, FileKeepsRecordedPathsAndAddsNewOnes) {
  Snapshot s = memo_snapshot();
  FilledPaths filled;
  Filler f(s, filled);
  RememberFolders on(f);
  f.file("/sys/a/b/f", "2\n", "test");   // recorded
  f.file("/sys/a/b/g", "3\n", "test");   // new, in a recorded folder
  f.file("/sys/file", "y", "test");      // recorded
  f.file("/sys/zz/new", "4\n", "test");  // new, after every recorded path
  f.file("/sys/a/b/g", "5\n", "test");   // filled already
  EXPECT_EQ(s.files.at("/sys/a/b/f").bytes, "1\n");
  EXPECT_EQ(s.files.at("/sys/a/b/g").bytes, "3\n");
  EXPECT_EQ(s.files.at("/sys/file").bytes, "x");
  EXPECT_EQ(s.files.at("/sys/zz/new").bytes, "4\n");
  EXPECT_EQ(filled, (FilledPaths{{"/sys/a/b/g", "test"}, {"/sys/zz/new", "test"}}));
}

}  // namespace
}  // namespace hwaccel::sim
