// `hwsim run`'s new root: which of this machine's mounts the command must not see.
// A host's /proc/self/mountinfo lists its disks, /proc, /sys, /dev and a few memory
// file systems; a container adds its runtime's files bound in one by one
// (/container_info.json, a socket) and read-only placeholders (an empty tmpfs over
// a tool folder). Those are left out of the new root (sandbox_mask.cpp), so that the
// command's mountinfo reads like the simulated host's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct MountLine {
  std::string root;         // the path inside its file system ("/" for a whole one)
  std::string mount_point;  // unescaped (\040 is a space)
  std::string options;      // the mount's own (rw,nosuid,...)
  std::string fstype;
  std::string source;
};

// The lines of /proc/PID/mountinfo (proc(5)); malformed lines are skipped.
std::vector<MountLine> mount_lines(std::string_view text);

// Mount points of this machine the simulated host has no business showing: below
// "/", outside /proc, /sys and /dev (replaced as a whole), either a single file
// bound in outside /etc (the resolver's and hosts files stay: programs need them),
// or a read-only memory file system. `is_dir(path)` says whether a mount point is
// a folder. Deepest first (the order they are unmounted in).
std::vector<std::string> foreign_mounts(const std::vector<MountLine>& lines,
                                        bool (*is_dir)(const std::string&));

}  // namespace hwaccel
