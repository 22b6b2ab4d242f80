// ttar, the plain-text tree archive of the Prometheus procfs test data
// (../shared/real-captures/procfs-fixtures.ttar): blocks of
//   Directory: PATH / Mode: 755
//   Path: PATH / Lines: N / N lines of contents / Mode: 644
//   Path: PATH / SymlinkTo: TARGET
// separated by "# ttar - - -" lines. In contents, "NULLBYTE" stands for a NUL byte
// and a last line ending in "EOF" has no newline. `hwsim import --ttar` reads one
// through MemoryTree, so that it is imported exactly like a folder.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/tree_source.h"

namespace hwaccel::sim {

struct TtarEntry {
  enum class Kind { dir, file, link } kind = Kind::file;
  std::string path;  // as in the archive (relative: "fixtures/proc/meminfo")
  std::string bytes;
  std::string target;
};

struct TtarArchive {
  std::vector<TtarEntry> entries;
  std::string error;  // "line N: what was expected"
};

TtarArchive parse_ttar(std::string_view text);

// A tree held in memory (what a ttar archive describes). Paths are "/"-rooted.
class MemoryTree : public TreeSource {
 public:
  // Entries under `prefix` ("fixtures") become the tree's root; others are dropped.
  MemoryTree(const std::vector<TtarEntry>& entries, std::string_view prefix);

  Result<TreeNode> lstat(std::string_view path) override;
  Result<std::vector<std::string>> list(std::string_view dir) override;
  Result<std::string> readlink(std::string_view path) override;
  Result<CappedRead> read(std::string_view path, std::size_t cap) override;

 private:
  struct Node {
    TtarEntry::Kind kind = TtarEntry::Kind::dir;
    std::string bytes, target;
  };
  void add(const std::string& path, Node node);
  std::map<std::string, Node> nodes_;
};

// The folder every entry of the archive lies in ("fixtures"), or "" if none.
std::string ttar_common_prefix(const std::vector<TtarEntry>& entries);

}  // namespace hwaccel::sim
