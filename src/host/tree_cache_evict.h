// Which entries of `hwsim run`'s tree cache go when it holds more than its budget
// (tree_cache_budget.h), now that a tree may be mounted with layers that other
// trees share (tree_layers.h): the least recently used go first, a layer is
// counted once however many trees use it and stays while a kept tree uses it,
// and a tree whose layer is gone goes with it (a run never finds half a tree).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

// An entry as its seal tells it.
struct SealedEntry {
  std::string key;
  long long used = 0;               // when it was last used (the seal's mtime, ns)
  bool known = false;               // its seal says its bytes ("bytes N")
  std::uint64_t bytes = 0;          // its own files' footprint
  std::vector<std::string> layers;  // the keys of the layers it is mounted with
};

// Reads "bytes N" and the "layer KEY AT" lines of a seal's text into `entry`
// (`known`: it said its bytes; another version's seal does not); false when a
// line of them is malformed (a layer that is not a key, bytes that are not a number).
bool parse_seal_head(std::string_view text, SealedEntry& entry);

// Goes through `entries` newest first (ties: the greater key first), keeping an
// entry while all kept take at most `budget` bytes (a tree with its layers not
// yet kept), and calls `remove` for each other one: a layer only when no kept
// tree uses it, a tree whose layer went (or is missing) in any case. The newest
// entry always stays. `remove` answers false when it could not remove the entry
// (a run holds it): then it is kept and counted.
void choose_evictions(std::vector<SealedEntry> entries, std::uint64_t budget,
                      const std::function<bool(const SealedEntry&)>& remove);

}  // namespace hwaccel
