// Reading a file only this user could have written (the detection cache): it
// is trusted as this user's own words, so anyone else able to write it, or the
// folder it is in, could make us believe anything ("the VM has 8 H100s").
// Lives in src/host/ because it is an access to the machine like any other.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <string>

#include "src/vocabulary/result.h"

namespace hwaccel {

// Why `folder` is not a private folder of this user: empty when it is a real
// directory (not a symbolic link), owned by this user, with no group or other
// permission bits (0700). ENOENT-free: a missing folder gives "missing".
std::string why_folder_is_not_private(const std::string& folder);

// The file at `path`, in `folder` (its parent), when both are private: the
// folder as above, the file a regular one (not a link: O_NOFOLLOW; not a FIFO:
// opened with O_NONBLOCK, checked with fstat before any read), owned by this
// user, mode 0600 or narrower, at most `max_bytes`. A missing file is ENOENT;
// every other refusal is EPERM with the reason as the message ("owned by uid
// 65534, not by you"), and nothing of such a file is read.
// `seen`, when given, gets the file's fstat (its times: src/host/run_plan_cache.h).
Result<std::string> read_private_file(const std::string& path, std::size_t max_bytes,
                                      struct stat* seen = nullptr);

}  // namespace hwaccel
