// Reading a tree laid out like "/" (an extracted hwloc-gather-topology tarball, a
// copy of /sys and /proc) entry by entry, for `hwsim import`. Unlike LiveHost
// --root, nothing here follows a link: a link is reported as a link, so that the
// import keeps it as one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"
#include "src/vocabulary/result.h"

namespace hwaccel {

struct TreeNode {
  FileKind kind = FileKind::regular;
  std::uint64_t size = 0;  // st_size; for sysfs and procfs files not to be trusted
};

// A file's first bytes, and whether there were more than asked for.
struct CappedRead {
  std::string bytes;
  bool truncated = false;
};

// The read side of a tree. Paths are absolute as seen inside the tree ("/proc/meminfo").
class TreeSource {
 public:
  virtual ~TreeSource() = default;
  virtual Result<TreeNode> lstat(std::string_view path) = 0;
  // Names, sorted, without "." and "..".
  virtual Result<std::vector<std::string>> list(std::string_view dir) = 0;
  virtual Result<std::string> readlink(std::string_view path) = 0;
  // At most `cap` bytes of a regular file; `truncated` when it holds more.
  virtual Result<CappedRead> read(std::string_view path, std::size_t cap) = 0;
};

// A tree on this machine's disk under `root`.
class DiskTree : public TreeSource {
 public:
  explicit DiskTree(std::string root);
  Result<TreeNode> lstat(std::string_view path) override;
  Result<std::vector<std::string>> list(std::string_view dir) override;
  Result<std::string> readlink(std::string_view path) override;
  Result<CappedRead> read(std::string_view path, std::size_t cap) override;

 private:
  Result<std::string> real(std::string_view path) const;
  std::string root_;
};

}  // namespace hwaccel
