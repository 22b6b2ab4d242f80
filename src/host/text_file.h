// Reading a whole input file the user named (a snapshot, a saved detection).
// Lives in src/host/ because it is an access to the machine like any other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "src/vocabulary/result.h"

namespace hwaccel {

// An open file descriptor of a regular file, and its size as fstat said.
struct RegularFile {
  int fd = -1;
  std::uint64_t size = 0;
};

// Opens `real` for reading only if it is a regular file (or, for the caller's
// read() to say EISDIR, never: a directory is refused with EISDIR here). The
// open uses O_NONBLOCK, so that a FIFO's open does not wait for a writer, and
// fstat decides: a FIFO, socket or device is refused with EINVAL and a message
// that says what it is ("PATH: a FIFO, not a regular file"), and closed
// unread. O_NONBLOCK is then cleared unless `keep_nonblock` (sysfs, whose
// attributes ignore it: one system call saved per file). `shown` is the path
// for messages; `extra_flags` are added to O_RDONLY|O_CLOEXEC|O_NONBLOCK.
// The caller closes the descriptor.
Result<RegularFile> open_regular_file(const std::string& real, std::string_view shown,
                                      int extra_flags = 0, bool keep_nonblock = false);

// The checks of open_regular_file() on a descriptor already open (closed on
// failure): a directory is EISDIR, a FIFO, socket or device EINVAL.
Result<RegularFile> regular_file_of(int fd, std::string_view shown, bool keep_nonblock = false);

// Looks at `real` before any open (stat, or lstat when `follow_last` is
// false): a FIFO, socket or device is refused with EINVAL and a message that
// says what it is, never opened (opening a device can act: a watchdog starts,
// a tape rewinds). nullopt when it may be opened.
std::optional<Error> refuse_special_file(const std::string& real, std::string_view shown,
                                         bool follow_last = true);

// "a FIFO", "a socket", "a character device", ... for a stat(2) st_mode.
std::string_view file_kind_phrase(unsigned mode);

// A file larger than `max_bytes` is refused with EFBIG on its size, before a
// byte is read, and reading stops one byte past the cap should it grow
// meanwhile (an untrusted snapshot must not make us allocate gigabytes). Only
// a regular file is opened and read (refuse_special_file, open_regular_file):
// a FIFO must not hang us.
Result<std::string> read_text_file(const std::string& path,
                                   std::size_t max_bytes = std::size_t{1} << 30);

// The same for a file of a folder the user named (a corpus of snapshots):
// `path` is below `folder`, and no link on the way leads out of it
// (src/host/inside_tree.h: EXDEV, and a message that says so).
Result<std::string> read_text_file_inside(const std::string& folder, const std::string& path,
                                          std::size_t max_bytes = std::size_t{1} << 30);

}  // namespace hwaccel
