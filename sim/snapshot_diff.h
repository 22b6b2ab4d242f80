// `hwsim diff` of two snapshots: host info, facts, env, files (added, removed,
// changed, with the first differing lines of text) and tool runs by argv. The
// lines are sorted by what they name, so the same two inputs give the same bytes.
#pragma once

#include <string>
#include <vector>

#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

// One line per difference ("files: ~ /proc/meminfo: ..."); empty when equal.
std::vector<std::string> diff_snapshots(const Snapshot& a, const Snapshot& b);

// A short description of what differs between two texts: the first differing
// lines ("line 3: -MemFree: 1 kB / +MemFree: 2 kB"), at most `max_lines` of each side.
std::string describe_text_change(const std::string& a, const std::string& b, int max_lines = 3);

}  // namespace hwaccel::sim
