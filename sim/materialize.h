// `hwsim materialize`: a snapshot as a tree laid out like "/" plus the shims of its
// tools (docs/hwsim.md). This is the plan only; src/host/tree_writer writes it.
//
// DIR/...                  the snapshot's files, links and folders at their paths
// DIR/.hwsim/bin/NAME      one shim per tool name (sim/shim_script.h)
// DIR/.hwsim/tools/N.out   the recorded stdout / stderr bytes of tool run N
// DIR/.hwsim/env           the snapshot's environment, NAME=VALUE lines (sorted)
// DIR/.hwsim/env.sh        the same as `export NAME='VALUE'`, PATH with the shims first
// DIR/.hwsim/special       entries a plain tree cannot show: PATH<TAB>what, sorted
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "src/host/tree_writer.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

inline constexpr const char* kMetaDir = "/.hwsim";
inline constexpr const char* kShimDir = "/.hwsim/bin";

// `root` is where the tree will be written (absolute), for env.sh's PATH.
// A tool recorded as not found gets no shim (a PATH search fails as it did),
// except those named in `shim_missing`: tools this machine has on the simulated
// PATH, which would otherwise run for real; their shim answers as the shell does
// for a missing command (exit 127, "NAME: not found" on stderr).
// `sleep_program` non-empty: the shims wait each run's recorded ms with it before
// answering (`--latency`, sim/shim_script.h); "" answers at once.
TreePlan plan_materialize(const Snapshot& snapshot, const std::string& root,
                          const std::set<std::string>& shim_missing = {},
                          const std::string& sleep_program = "");

// Tools by name whose every recorded run is not-found.
std::set<std::string> tools_recorded_missing(const Snapshot& snapshot);

// The environment a program run on the host gets: the snapshot's `env`, with
// PATH = `shim_dir` followed by the snapshot's PATH (or the default search list).
std::map<std::string, std::string> run_environment(const Snapshot& snapshot,
                                                   const std::string& shim_dir);

// Where a recorded path lands once the links recorded above it are followed
// inside the snapshot ("/sys/class/drm/card0/device/vendor" -> "/sys/devices/..."),
// or "" when the links loop.
std::string resolve_through_links(const Snapshot& snapshot, const std::string& path);

}  // namespace hwaccel::sim
