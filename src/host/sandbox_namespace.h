// `hwsim run`'s namespaces: the command's process gets private mount, UTS, PID and
// cgroup namespaces, as root directly, else through a user namespace that maps only
// our own uid and gid. In its PID namespace it is PID 1 (sandbox_init.h); the
// cgroup namespace makes /proc/*/cgroup read "/" for the cgroup hwsim runs in. A
// kernel without the last two still gives the mount namespace.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "src/host/mount_table.h"

namespace hwaccel {

struct Entered {
  bool uts = false, pid = false;
  bool cloned = false;  // made by clone(2) straight into them (spawn)
  bool user = false;    // ... through a user namespace, whose maps are still to write
  uid_t uid = 0;
  gid_t gid = 0;
};

// In a new user namespace: our own uid and gid mapped to themselves. "" or why not.
std::string write_maps(uid_t uid, gid_t gid);

// The calling process enters the namespaces itself (unshare(2)); with a PID one, its
// next child is PID 1 there. "" or why no mount namespace could be had.
std::string enter_namespace(Entered& got);

// Forks the command's process straight into its namespaces where the kernel allows
// (clone(2) with their flags; nothing then stands between hwsim and it). A raw clone
// skips glibc's fork handlers, so only a single-threaded hwsim does it; else a plain
// fork, whose child calls enter_namespace. In the child, `got` says which.
pid_t spawn(bool use_namespace, Entered& got);

// This machine's mount table as the namespace starts with it (before our mounts).
std::vector<MountLine> machine_mounts();

}  // namespace hwaccel
