// Writing a file the user asked for: to a dot-named temporary beside it
// (".NAME.tmp-PID", which NFD and most watchers ignore), flushed to disk, then
// renamed over the target in one step. A failed or interrupted write (even
// kill -9) never leaves a half file and never destroys what was there; at
// worst a stale temporary stays behind.
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

// The temporary a write to `path` by process `pid` uses (for tests and for
// the message after an interrupted write).
std::string temporary_path_for(const std::string& path, long pid);

// Creates `path` and its missing parents (mkdir -p), new ones with `mode`
// (before the umask; 0700 for private folders). Empty on success, else the reason.
std::string make_directories(const std::string& path, mode_t mode = 0777);

}  // namespace hwaccel::cli
