// `hwsim materialize`: a snapshot as a tree laid out like "/" plus the shims of its
// tools (docs/hwsim.md). This is the plan only; src/host/tree_writer writes it.
//
// DIR/...                  the snapshot's files, links and folders at their paths
// DIR/.hwsim/bin/NAME      one shim per tool name (sim/shim_script.h)
// DIR/.hwsim/paths/P       the shim of a tool run by absolute path P (also at DIR/P)
// DIR/.hwsim/tools/N.out   the recorded stdout / stderr bytes of tool run N
// DIR/.hwsim/env           the snapshot's device view (sim/run_environment.h), NAME=VALUE
// DIR/.hwsim/env.sh        for a shell: the same exported, this shell's PATH after the shims
// DIR/.hwsim/special       entries a plain tree cannot show: PATH<TAB>what, sorted
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sim/shim_script.h"
#include "src/host/tree_writer.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

inline constexpr const char* kMetaDir = "/.hwsim";
inline constexpr const char* kShimDir = "/.hwsim/bin";
// Shims of tools run by absolute path, at their paths below it, and nothing else:
// what `hwsim run` binds or overlays (never a folder of the snapshot's own files).
inline constexpr const char* kShimPathsDir = "/.hwsim/paths";
// The snapshot the tree was made from, as write_snapshot() writes it.
inline constexpr const char* kSnapshotCopy = "/.hwsim/snapshot.yaml";

// `root` is where the tree will be written (absolute), for env.sh's PATH.
// A tool recorded as not found gets no shim (a PATH search fails as it did),
// except those named in `shim_missing`: tools this machine has on the simulated
// PATH, which would otherwise run for real; their shim answers as the shell does
// for a missing command (exit 127, "NAME: not found" on stderr).
// `helpers`: this machine's `cat` and `sleep` the shims run (sim/shim_script.h).
// `sleep_program` non-empty: the shims wait each run's recorded ms with it before
// answering (`--latency`, sim/shim_script.h); "" answers at once.
// A tool name that cannot be a shim ("", ".", "..", a relative path, a path that
// is not plain) sets plan.error, naming the run, and plans nothing: write nothing.
// What is left out for safety (device-view values of the wrong shape, NUL words) is
// in plan.warnings; what a plain tree cannot show, and the count of recorded
// variables not passed on, in plan.notes.
TreePlan plan_materialize(const Snapshot& snapshot, const std::string& root,
                          const std::set<std::string>& shim_missing = {},
                          const std::string& sleep_program = "", const ShimHelpers& helpers = {});

// "" or, for the first tool whose name cannot be a shim, which run and why
// (`tools: the run of `. -L`: argv[0] ".": not a tool name ...`).
std::string check_tool_names(const Snapshot& snapshot);

// Tools by name whose every recorded run is not-found.
std::set<std::string> tools_recorded_missing(const Snapshot& snapshot);

// [A-Za-z_][A-Za-z0-9_]*
bool is_variable_name(std::string_view key);

// Where a recorded path lands once the links recorded above it are followed
// inside the snapshot ("/sys/class/drm/card0/device/vendor" -> "/sys/devices/..."),
// or "" when the links loop.
std::string resolve_through_links(const Snapshot& snapshot, const std::string& path);

}  // namespace hwaccel::sim
