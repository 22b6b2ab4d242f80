// Paths under a root: LiveHost's --root DIR treats DIR as "/", so a tree copied
// off another machine (sysfs, procfs, /dev, with its links) reads as that machine.
// Links are followed here, component by component, so that none of them — absolute
// or full of ".." — leads out of DIR (the semantics of chroot and of openat2's
// RESOLVE_IN_ROOT).
//
// This keeps a replayed tree from reading the real machine by accident. It is not
// a security boundary against someone changing the tree while we walk it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "src/vocabulary/result.h"

namespace hwaccel {

// The most links one resolution follows before ELOOP, as Linux (MAXSYMLINKS).
inline constexpr int kMaxSymlinkFollows = 40;

// Host paths are absolute and free of NUL bytes; anything else is EINVAL.
std::optional<Error> check_host_path(std::string_view path);

// readlink(2) of a real path, the raw target. The buffer grows as needed: the
// st_size of a link is not to be trusted (procfs reports 0 or 64).
Result<std::string> read_link_target(const std::string& real, std::string_view context);

// Maps the absolute `path` (as seen inside `root`) to a real path under `root`.
// Every link met on the way is resolved inside `root`: an absolute target restarts
// at `root`, ".." stops at `root`. The last component is followed only when
// `follow_last` (stat, read) and left as it is otherwise (readlink). Errors carry
// the errno of the failing step (ENOENT, ENOTDIR, ELOOP, EACCES, EINVAL).
Result<std::string> resolve_in_root(const std::string& root, std::string_view path,
                                    bool follow_last);

}  // namespace hwaccel
