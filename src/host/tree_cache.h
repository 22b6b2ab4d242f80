// `hwsim run`'s cache of written trees. A DGX H100's tree is ~14,000 files: writing
// them (and planning them) costs far more than the command it runs, so each tree
// is written once to BASE/hwsim/trees/KEY (BASE: default_tree_cache_base),
// KEY = SHA-256 of the snapshot's SHA-256, hwsim's build id and the run's options,
// and later runs mount it (read-only, under a tmpfs overlay) instead.
//
// An entry is trusted only when nobody but this user could have made it:
// - `hwsim` and `trees` (and /dev/shm's hwsim-UID) are real folders (opened with O_NOFOLLOW, never
// a link),
//   owned by this user, mode 0700 (made so when missing); anything else: no cache;
// - the entry is a real folder of ours, 0700, and its seal (trees/KEY.seal, a
//   0600 regular file of ours) names KEY, the entry's inode, and the inode and
//   change time of the entry's top folder and of every folder directly in it,
//   as they were when the entry was published (an atomic rename of a complete
//   tree). A planted entry (no seal, another seal, another folder moved in its
//   place, a link) or a changed one (entries added or removed at its top, a
//   chmod, a folder swapped) is refused, moved aside and removed without
//   following any link in it, and written anew.
// Not detected: this same user editing a file deep in the entry in place (they
// could as well replace hwsim itself); checking every file would cost what the
// cache saves (tens of ms for 14,000 stats).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/host/build_id.h"  // program_build_id, which keys the cache
#include "src/host/tree_writer.h"

namespace hwaccel {

struct TreeCacheDir {
  std::string path;     // ".../hwsim/trees": usable when non-empty
  std::string why_not;  // why there is no cache (empty when path is set)
  // ".../hwsim/plans" (src/host/run_plan_cache.h), checked as `trees`; "" when it
  // cannot be had (the trees are cached all the same).
  std::string plans;
};

// The base folder: $HWSIM_TREE_CACHE (absolute; `off`: no cache), else in memory:
// $XDG_RUNTIME_DIR, else /dev/shm/hwsim-UID (a folder of ours, 0700, in the shared
// one); else on disk: $XDG_CACHE_HOME, else $HOME/.cache. "" and `why_not` when none.
std::string default_tree_cache_base(std::string& why_not);

// `base`/hwsim/trees (and `base`/hwsim/plans), each made 0700 when missing and
// checked as above. `base` itself is the user's own setting and is followed.
TreeCacheDir open_tree_cache(const std::string& base);

// Where the entry for `key` is (the root a plan for it must be made with).
std::string cached_tree_path(const TreeCacheDir& cache, const std::string& key);

// An entry held for a run: a shared flock(2) on its seal, released when the last
// copy goes. Eviction takes the entry's lock exclusively without waiting and
// leaves a held entry alone: a run's files never vanish under its command.
using EntryInUse = std::shared_ptr<const int>;

// A layer a tree is mounted with (src/host/tree_layers.h): its entry's key and
// the tree's folder it goes on.
struct LayerRef {
  std::string key;
  std::string at;
  bool operator==(const LayerRef&) const = default;
};

struct CachedTree {
  bool hit = false;
  std::vector<LayerRef> layers;       // what its seal names (a hit): each its own entry
  EntryInUse in_use;                  // held while the entry is used (a hit)
  std::string refused;                // non-empty: an entry was there and was not trusted (why)
  std::vector<std::string> warnings;  // the plan's, kept in the seal
  std::vector<std::string> notes;
};

// A trusted entry for `key` (hit), else nothing; an untrusted one is removed
// (`refused` says why).
CachedTree find_cached_tree(const TreeCacheDir& cache, const std::string& key);

// Writes `plan` (made with root = cached_tree_path) into a private staging folder,
// publishes it as the entry with one rename and seals it (with its footprint,
// tree_cache_budget.h, and the `layers` it is mounted with, each stored first);
// holds it (`in_use`, when given); then the least recently used entries go until
// the rest take at most `budget` bytes (the new one with its layers and those
// held by a run always stay; tree_cache_evict.h). "" or what failed (nothing is
// then left as an entry).
std::string store_cached_tree(const TreeCacheDir& cache, const std::string& key,
                              const TreePlan& plan, std::uint64_t budget,
                              EntryInUse* in_use = nullptr,
                              const std::vector<LayerRef>& layers = {});

// A layer (tree_layers.h: `plan` below kLayerTop) stored as an entry of its
// own, the same way and as safely (two runs storing one at once: one publishes,
// the other fails and finds it); held (`in_use`, when given); nothing is evicted
// (the tree stored next does that). "" or what failed.
std::string store_cached_layer(const TreeCacheDir& cache, const std::string& key,
                               const TreePlan& plan, EntryInUse* in_use = nullptr);

}  // namespace hwaccel
