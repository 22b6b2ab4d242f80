// Which of a snapshot's links a laid tree may hold (`hwsim run`, `hwsim
// materialize`). Under `hwsim run` the tree's /sys and /dev replace the real ones
// and its recorded /proc paths cover theirs, but everything else in the
// command's view is this machine's: a link laid as recorded
// (`/sys/x -> /etc/shadow`, `../../../root/.ssh/id_ed25519`,
// `/proc/self/root/...`) would hand any program there this machine's files as
// the simulated host's. So a link is laid only when it resolves, as the kernel
// would resolve it there, inside what the snapshot lays: /sys and /dev, the
// recorded paths of /proc, and "/" only on the way through. The one way into
// the real /proc kept is a process's own descriptors (/dev/fd -> /proc/self/fd,
// /dev/stdin -> /proc/self/fd/0), which read nothing the program does not hold.
#pragma once

#include <string>

#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

// "" when the link at `where` (its place in the tree, the links above it
// already resolved) with `target` stays inside; else why it does not ("leads
// to /etc/shadow, outside the simulated /sys, /proc and /dev").
std::string link_leaves_view(const Snapshot& snapshot, const std::string& where,
                             const std::string& target);

}  // namespace hwaccel::sim
