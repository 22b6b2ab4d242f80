// FileIndex: a snapshot's files by exact path, hashed, beside the ordered map
// (Snapshot::files). SnapshotHost walks a path a component at a time, looking up
// every folder on the way (a link or a recorded absence there decides); through
// the ordered map that was nine string compares of long shared prefixes per
// component (/sys/devices/pci0000:00/...), 2,411 lookups in one detection of the
// recorded DGX H100. Here the hash of a path grows with it, so the walk hashes
// each byte once and a lookup is a probe or two.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "src/snapshot/snapshot.h"

namespace hwaccel {

class FileIndex {
 public:
  using Files = std::map<std::string, FileEntry>;

  FileIndex() = default;
  // Points into `files`, which must outlive the index and not change.
  explicit FileIndex(const Files& files);

  // FNV-1a, 64 bits: extend(extend(empty(), a), b) == extend(empty(), a + b).
  static constexpr std::uint64_t empty() { return 0xcbf29ce484222325ULL; }
  static std::uint64_t extend(std::uint64_t hash, std::string_view bytes) {
    for (unsigned char c : bytes) hash = (hash ^ c) * 0x100000001b3ULL;
    return hash;
  }

  // The entry recorded at exactly `path` (no normalising), or null; `hash` is
  // extend(empty(), path).
  const FileEntry* find(std::string_view path, std::uint64_t hash) const;
  const FileEntry* find(std::string_view path) const { return find(path, extend(empty(), path)); }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    const Files::value_type* file = nullptr;  // null: empty
  };
  std::vector<Slot> slots_;  // a power of two, at most half full
};

}  // namespace hwaccel
