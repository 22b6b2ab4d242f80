// What `hwsim run` covers with bind mounts in its private mount namespace: the
// whole of /sys and /dev (the materialized ones replace the real ones), and under
// /proc only what the snapshot recorded (procfs itself stays: programs need
// /proc/self). Per-process paths (/proc/self, /proc/<pid>) are never covered.
// Nothing else of the snapshot's files is ever presented (a recorded /etc file
// must not replace this machine's): those are listed, and only tool shims are put
// at paths elsewhere (src/host/sandbox_runner.h says where that is safe).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

struct MountPlan {
  // Recorded /proc paths that the materialized tree holds (files, folders).
  std::vector<std::string> proc_present;
  // Recorded /proc paths that must not be seen (absent, ENOENT): the real ones are hidden.
  std::vector<std::string> proc_absent;
  // Tools run by absolute path outside /sys, /proc, /dev whose shims the tree holds
  // at that path (/opt/qti-aic/tools/qaic-util).
  std::vector<std::string> tool_paths;
  // Tools run by absolute path that are never presented at that path, with why: a
  // system folder (/etc, /lib*, /usr/lib*) or a library or loader name
  // (tool_path_refusal). `hwsim run` also refuses any path this machine has.
  std::vector<std::pair<std::string, std::string>> tools_refused;
  // "PATH: why" for recorded /proc paths that are not covered at all.
  std::vector<std::string> proc_skipped;
  // Recorded paths outside /sys, /proc and /dev: the command sees this machine's.
  std::vector<std::string> not_presented;
};

MountPlan plan_mounts(const Snapshot& snapshot);

// Why a tool recorded at absolute `path` may never be presented there, whatever
// this machine has: "" when it may (where nothing of this machine is at the path).
// The snapshot adds to this machine's userland and never replaces a program,
// library, loader or configuration of it.
std::string tool_path_refusal(const std::string& path);

}  // namespace hwaccel::sim
