// What a Linux kernel presents that a snapshot implies but does not hold: a
// snapshot records what hwaccel's probes read, while programs we did not write
// (lscpu, hwloc, numactl, glibc's sysconf, container checks) read other files of
// the same kernel. fill_implied adds those files, derived only from what the
// snapshot says (facts.cpus, facts.kernel, its recorded files), never over a
// recorded path, and lists each one with where it came from. `hwsim materialize`
// and `hwsim run` present the filled host; `hwsim replay` never sees the fill.
#pragma once

#include <map>
#include <string>

#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

// path -> what it was derived from ("facts.kernel"); sorted.
using FilledPaths = std::map<std::string, std::string>;

// Adds the implied files to `snapshot.files`; returns what was added.
FilledPaths fill_implied(Snapshot& snapshot);

// A copy of `snapshot` with the implied files (`filled`, if given, says which).
Snapshot with_implied(const Snapshot& snapshot, FilledPaths* filled = nullptr);

// The same for /proc only (what sim/mount_plan needs: the rest of the fill is
// /sys, thousands of files on a big host, and costs `hwsim run` its speed).
Snapshot with_implied_proc(const Snapshot& snapshot);

}  // namespace hwaccel::sim
