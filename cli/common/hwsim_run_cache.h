// `hwsim run`'s use of the tree cache (src/host/tree_cache.h): the key of a run's
// tree, and finding or writing its entry.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/shim_script.h"
#include "src/host/tree_cache.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::cli {

// SHA-256 over everything the tree depends on: the snapshot's bytes (by their
// SHA-256, `snapshot_sha256`: a warm run has it from its cached plan,
// sim/run_plan.h), hwsim's build id, the tools hidden here, the --latency sleep
// program and the shims' helpers. "" when this build has no build id (then
// nothing is cached: a rebuilt hwsim could not tell its trees from an older one's).
std::string run_tree_key(std::string_view snapshot_sha256, const std::set<std::string>& hide,
                         const std::string& sleep_program, const sim::ShimHelpers& helpers);

// The tree cache (`cache.path` empty when there is none: `cache.why_not` says why).
TreeCacheDir open_run_tree_cache();

struct RunTree {
  std::string root;  // where the tree is; "" when the cache cannot be used
  std::vector<std::string> warnings, notes;
  bool hit = false;
  EntryInUse in_use;  // the entry held until the run ends (no eviction under it)
  // The layers it is mounted with (src/host/tree_layers.h): the tree's folder ->
  // the layer's entry, each held as the tree is.
  std::vector<std::pair<std::string, std::string>> layers;
  std::vector<EntryInUse> layers_in_use;
};

// The cached tree for `key` in `cache` with its layers (written first when
// missing or refused, a layer only when no tree stored it yet, from `snapshot()`:
// null when it cannot be had, said by the caller). Messages for the user (a
// refused entry, why there is no cache) go to stderr. `emulator`: the tree holds
// the emulator's placeholder and log (sim/emulate/emulator_plan.h), which the run
// binds over; whether it does follows from the snapshot's bytes, which the key
// holds.
RunTree cached_run_tree(const TreeCacheDir& cache, const std::string& key,
                        const std::function<const Snapshot*()>& snapshot,
                        const std::set<std::string>& hide, const std::string& sleep_program,
                        const sim::ShimHelpers& helpers, bool emulator, bool verbose);

}  // namespace hwaccel::cli
