// `hwsim run`'s use of the tree cache (src/host/tree_cache.h): the key of a run's
// tree, and finding or writing its entry.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sim/shim_script.h"
#include "src/host/tree_cache.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::cli {

// SHA-256 over everything the tree depends on: the snapshot's bytes, hwsim's
// build id, the tools hidden here, the --latency sleep program and the shims' helpers. "" when this
// build has no build id (then nothing is cached: a rebuilt hwsim could not tell
// its trees from an older one's).
std::string run_tree_key(std::string_view snapshot_bytes, const std::set<std::string>& hide,
                         const std::string& sleep_program, const sim::ShimHelpers& helpers);

struct RunTree {
  std::string root;  // where the tree is; "" when the cache cannot be used
  std::vector<std::string> warnings, notes;
  bool hit = false;
  EntryInUse in_use;  // the entry held until the run ends (no eviction under it)
};

// The cached tree for `key` (written first when missing or refused). Messages
// for the user (a refused entry, why there is no cache) go to stderr.
// `emulator`: the tree holds the emulator's placeholder and log
// (sim/emulate/emulator_plan.h), which the run binds over; whether it does
// follows from the snapshot's bytes, which the key holds.
RunTree cached_run_tree(const std::string& key, const Snapshot& snapshot,
                        const std::set<std::string>& hide, const std::string& sleep_program,
                        const sim::ShimHelpers& helpers, bool emulator, bool verbose);

}  // namespace hwaccel::cli
