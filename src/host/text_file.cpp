#include "src/host/text_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

#include "src/host/inside_tree.h"
#include "src/host/terminal.h"

namespace hwaccel {

std::string_view file_kind_phrase(unsigned mode) {
  switch (mode & S_IFMT) {
    case S_IFIFO:
      return "a FIFO";
    case S_IFSOCK:
      return "a socket";
    case S_IFCHR:
      return "a character device";
    case S_IFBLK:
      return "a block device";
    case S_IFDIR:
      return "a directory";
    case S_IFLNK:
      return "a symbolic link";
    case S_IFREG:
      return "a regular file";
    default:
      return "not a regular file";
  }
}

namespace {

Error not_regular(std::string_view shown, unsigned mode) {
  return Error{EINVAL, std::string(shown) + ": " + std::string(file_kind_phrase(mode)) +
                           ", not a regular file"};
}

}  // namespace

std::optional<Error> refuse_special_file(const std::string& real, std::string_view shown,
                                         bool follow_last) {
  struct stat st {};
  int rc = follow_last ? ::stat(real.c_str(), &st) : ::lstat(real.c_str(), &st);
  if (rc != 0) return make_error(errno, shown);
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
    return not_regular(shown, st.st_mode);
  return std::nullopt;
}

Result<RegularFile> open_regular_file(const std::string& real, std::string_view shown,
                                      int extra_flags, bool keep_nonblock) {
  int fd = ::open(real.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | extra_flags);
  if (fd < 0) return make_error(errno, shown);
  return regular_file_of(fd, shown, keep_nonblock);
}

Result<RegularFile> regular_file_of(int fd, std::string_view shown, bool keep_nonblock) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int code = errno;
    ::close(fd);
    return make_error(code, shown);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    if (S_ISDIR(st.st_mode)) return make_error(EISDIR, shown);
    return not_regular(shown, st.st_mode);
  }
  // A regular file of procfs or FUSE may honour O_NONBLOCK on read: cleared
  // (the only status flag set at the open, so 0 clears just it).
  if (!keep_nonblock && ::fcntl(fd, F_SETFL, 0) != 0) {
    int code = errno;
    ::close(fd);
    return make_error(code, shown);
  }
  return RegularFile{fd, st.st_size > 0 ? static_cast<std::uint64_t>(st.st_size) : 0};
}

namespace {

// Maps the whole pages of [data, data + size) in one call (MADV_POPULATE_WRITE,
// Linux 5.14: man 2 madvise) instead of one page fault per 4 KiB as they are
// first written (the 516 KB snapshot of the DGX H100: 126 faults fewer, about
// -0.03 ms; issue 37). Only for a large buffer: past malloc's 128 KiB mmap
// threshold (mallopt(3)) its pages are all fresh. An older kernel's EINVAL
// leaves the faults.
void populate_pages(char* data, std::size_t size) {
#ifdef MADV_POPULATE_WRITE
  if (size < (std::size_t(128) << 10)) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto first = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + size) & ~(page - 1);
  if (end > first) ::madvise(reinterpret_cast<void*>(first), end - first, MADV_POPULATE_WRITE);
#else
  (void)data;
  (void)size;
#endif
}

// Reads an opened regular file whole, up to `max_bytes` (EFBIG past it); closes it.
Result<std::string> read_opened(RegularFile opened, const std::string& path,
                                std::size_t max_bytes) {
  const int fd = opened.fd;
  auto too_large = [&] {
    ::close(fd);
    return Error{EFBIG, path + ": larger than " + std::to_string(max_bytes >> 20) + " MiB"};
  };
  if (opened.size > max_bytes) return too_large();
  // The size fstat gave, plus one byte to see the end: read straight into the
  // string (no chunk copied after), no reallocation for a file that stays as
  // it was, and never more than one byte past the cap.
  const std::size_t cap = max_bytes + 1;
  // (A size of 0, as procfs says, starts at 4 KiB.)
  const std::size_t first_size =
      std::min(std::max(static_cast<std::size_t>(opened.size) + 1, std::size_t(4096)), cap);
  std::string text;
  text.reserve(first_size);
  populate_pages(text.data(), first_size);
  text.resize(first_size);
  std::size_t len = 0;
  for (;;) {
    if (len == text.size()) {
      if (len >= cap) return too_large();
      text.resize(std::min(std::max(len * 2, len + (std::size_t(1) << 16)), cap));
    }
    ssize_t n = ::read(fd, text.data() + len, text.size() - len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int code = errno;
      ::close(fd);
      return make_error(code, path);
    }
    if (n == 0) break;
    len += static_cast<std::size_t>(n);
  }
  if (len > max_bytes) return too_large();
  text.resize(len);
  ::close(fd);
  return text;
}

}  // namespace

Result<std::string> read_text_file(const std::string& path, std::size_t max_bytes) {
  if (auto special = refuse_special_file(path, path)) return *special;
  auto opened = open_regular_file(path, path);
  if (!opened) return opened.error();
  return read_opened(*opened, path, max_bytes);
}

Result<std::string> read_text_file_inside(const std::string& folder, const std::string& path,
                                          std::size_t max_bytes) {
  // The tree and the file by their absolute paths; messages say them as given.
  const std::string real = absolute_path(path);
  InsideTree tree(absolute_path(folder), folder);
  auto opened = open_regular_inside(tree, real);
  if (!opened) {
    Error error = opened.error();
    if (error.message.rfind(real, 0) == 0) error.message.replace(0, real.size(), path);
    return error;
  }
  return read_opened(*opened, path, max_bytes);
}

}  // namespace hwaccel
