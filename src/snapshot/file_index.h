// FileIndex: a snapshot's files by exact path, hashed, beside the ordered map
// (Snapshot::files). SnapshotHost walks a path a component at a time, looking up
// every folder on the way (a link or a recorded absence there decides); through
// the ordered map that was nine string compares of long shared prefixes per
// component (/sys/devices/pci0000:00/...), 2,411 lookups in one detection of the
// recorded DGX H100. Here the hash of a path grows with it, so the walk hashes
// each byte once and a lookup is a probe or two.
//
// The paths come from a hostile snapshot, and FNV-1a is no defence: paths whose
// hashes share their low bits are found by brute force in moments, and they
// would all crowd one run of slots (a quadratic build, linear lookups). So the
// build tracks how far any entry landed from its home slot; past
// kMaxDisplacement it gives up (the index is left empty and gave_up() says so,
// and its user goes to the ordered map), and a lookup never probes more than
// the longest displacement plus one slots.
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

  // True when the build met more crowding than kMaxDisplacement allows: the
  // index is empty (finds nothing) and the caller must ask the ordered map.
  bool gave_up() const { return gave_up_; }
  // The farthest any entry lies from its home slot (0 when empty or given up).
  std::size_t longest_displacement() const { return longest_; }

  // Generous for honest paths: with the table at most half full, random
  // hashes left the longest displacement at 13 to 31 in simulated tables of
  // 2,000 to 60,000 paths (five and four runs each; helper-37, issue 37), and
  // giving up costs only speed. A bounded build (at most 65 probes a path) and
  // bounded lookups either way.
  static constexpr std::size_t kMaxDisplacement = 64;

 private:
  struct Slot {
    std::uint64_t hash = 0;
    const Files::value_type* file = nullptr;  // null: empty
  };
  std::vector<Slot> slots_;  // a power of two, at most half full
  std::size_t longest_ = 0;  // probes past the home slot a lookup may need
  bool gave_up_ = false;
};

}  // namespace hwaccel
