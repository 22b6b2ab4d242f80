// `hwsim run`'s plan: everything a run takes from its snapshot once the snapshot
// is parsed, apart from the tree itself (which the tree cache holds,
// src/host/tree_cache.h). A warm run reads it from the run-plan cache
// (src/host/run_plan_cache.h, keyed by the snapshot file's identity) instead of
// parsing and hashing the snapshot; a cold run makes it here from the parsed
// snapshot, and both then run the same code on the same plan.
//
// The cached text is read back as untrusted bytes: decode_run_plan() takes only
// what encode_run_plan() writes (a version line, known tags, each scalar once,
// numbers in range, the device view's names on the allow-list and each value of
// its shape, an `end` line and nothing after it); anything else is an error, the
// caller's miss. Nothing in it is ever run: it names paths and values only.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/mount_plan.h"
#include "sim/run_environment.h"
#include "src/host/sandbox_mask.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

// A character device of the snapshot's /dev (a link followed to it), made this
// machine's /dev/null in the namespace; `known`: the driver's numbers are known
// (sim/dev_nodes.h), said with -v.
struct RunDevNode {
  DevNode node;
  bool known = false;
  bool operator==(const RunDevNode& o) const {
    return node.path == o.node.path && node.major == o.node.major &&
           node.minor == o.node.minor && node.mode == o.node.mode && known == o.known;
  }
};

struct RunPlan {
  std::string snapshot_sha256;  // of the snapshot's bytes (the tree cache's key holds it)
  bool tool_times = false;      // some recorded run took ms > 0 (--latency says when none)
  bool emulated_tools = false;  // sim/emulate/emulator_plan.h has_emulated_tools
  bool vulkan_driver = false;   // hwaccel's Vulkan probe replayed over it lists a device
  bool nvidia_present = false;  // sim/nvidia_software.h
  std::string nvidia_why;
  std::string hostname;  // as recorded (sim::run_hostname decides what the command sees)
  std::string kernel, arch;
  int cpus = 0;
  DeviceView device_view;                   // sim/run_environment.h
  std::set<std::string> tools_missing;      // materialize.h tools_recorded_missing
  MountPlan mounts;                         // plan_mounts(with_implied_proc(snapshot))
  std::vector<std::string> markers_shown;   // container markers the snapshot records
  std::vector<std::string> markers_hidden;  // the others (this machine's are hidden)
  std::vector<RunDevNode> dev_nodes;

  bool operator==(const RunPlan& o) const;
};

// The files that say what kind of machine this is (a container's markers).
const std::vector<std::string>& container_marker_paths();

// Everything but snapshot_sha256 (the caller's, from the bytes it parsed).
RunPlan make_run_plan(const Snapshot& snapshot);

// Whether some recorded tool run took time (ms > 0).
bool recorded_tool_times(const Snapshot& snapshot);

// Whether hwaccel's Vulkan probe replayed over the snapshot lists a device.
bool snapshot_has_vulkan_driver(const Snapshot& snapshot);

// Text, one `tag value` per line (values escaped: no raw newline or space).
std::string encode_run_plan(const RunPlan& plan);
// The plan, or nullopt and `why` for any text encode_run_plan would not write.
std::optional<RunPlan> decode_run_plan(std::string_view text, std::string& why);

}  // namespace hwaccel::sim
