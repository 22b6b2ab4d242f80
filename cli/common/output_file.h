// Writing a file the user asked for: to a dot-named temporary beside it
// (".NAME.tmp-PID-N", N a serial of the write within the process, which NFD
// and most watchers ignore), flushed to disk, then
// renamed over the target in one step. A failed or interrupted write (even
// kill -9) never leaves a half file and never destroys what was there; the
// temporary it leaves behind is removed by the next write to the same file.
// Only a regular file is ever replaced: a symbolic link, a device node, a FIFO,
// a socket or a folder at the path is refused, --force or not, and never
// followed.
#pragma once

#include <sys/types.h>

#include <string>

namespace hwaccel::cli {

enum class ExistingFile {
  replace,  // our own output refreshed in place (exports, caches, goldens)
  keep,     // a user's file: refuse, unless the user passed --force
};

// Permission bits of the written file. kKeepMode: a replaced file keeps its
// own, a new one gets 0666 less the umask. Any other value is applied exactly
// (0600 for private files such as the detection cache), whatever was there.
inline constexpr mode_t kKeepMode = mode_t(-1);

// Returns an empty string on success, else the reason (naming the path).
std::string write_file_atomically(const std::string& path, const std::string& bytes,
                                  ExistingFile existing = ExistingFile::replace,
                                  mode_t mode = kKeepMode);

// The temporary the write number `serial` to `path` by process `pid` uses
// (0: the ".NAME.tmp-PID" of earlier versions, still cleaned up).
std::string temporary_path_for(const std::string& path, long pid, unsigned long serial = 0);

// Removes the temporaries ".NAME.tmp-PID[-N]" beside `path` left by writes
// that were killed: only regular files of this user whose PID is no live
// process (a live one, this process included, may be writing it now).
void remove_stale_temporaries(const std::string& path);

// Creates `path` and its missing parents (mkdir -p), new ones with `mode`
// (before the umask; 0700 for private folders). The folder itself must be a
// real one, not a link to one. Empty on success, else the reason.
std::string make_directories(const std::string& path, mode_t mode = 0777);

}  // namespace hwaccel::cli
