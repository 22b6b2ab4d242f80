#include "src/host/private_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace hwaccel {

namespace {

std::string octal_mode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", unsigned(mode & 07777));
  return text;
}

// Why a file or folder with this stat is not this user's alone; empty when it is.
std::string why_not_ours(const struct stat& st, const char* wanted) {
  if (st.st_uid != ::geteuid())
    return "owned by uid " + std::to_string(st.st_uid) + ", not by you (uid " +
           std::to_string(::geteuid()) + ")";
  if ((st.st_mode & 077) != 0)
    return "mode " + octal_mode(st.st_mode) + ", open to group or others (" + wanted + " wanted)";
  return "";
}

const char* kind_words(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device node";
  return "not a regular file";
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

Error refused(const std::string& why) {
  return Error{EPERM, why};
}

}  // namespace

std::string why_folder_is_not_private(const std::string& folder) {
  struct stat st {};
  if (::lstat(folder.c_str(), &st) != 0)
    return errno == ENOENT ? "missing" : std::string("cannot stat: ") + std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return std::string("the folder is ") + kind_words(st.st_mode);
  if (auto why = why_not_ours(st, "0700"); !why.empty()) return "the folder is " + why;
  return "";
}

Result<std::string> read_private_file(const std::string& path, std::size_t max_bytes,
                                      struct stat* seen) {
  const auto slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "."
                             : slash == 0               ? "/"
                                                        : path.substr(0, slash);
  if (auto why = why_folder_is_not_private(folder); why == "missing")
    return make_error(ENOENT, path);
  else if (!why.empty())
    return refused(folder + ": " + why);

  // O_NONBLOCK: opening a FIFO for reading would wait for a writer forever.
  Fd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) {
    if (errno == ELOOP) return refused(path + " is a symbolic link");
    return make_error(errno, path);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return make_error(errno, path);
  if (!S_ISREG(st.st_mode)) return refused(path + " is " + kind_words(st.st_mode));
  if (auto why = why_not_ours(st, "0600"); !why.empty()) return refused(path + " is " + why);
  if (seen) *seen = st;

  std::string text;
  char chunk[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd.get(), chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(errno, path);
    if (n == 0) break;
    text.append(chunk, std::size_t(n));
    if (text.size() > max_bytes)
      return Error{EFBIG, path + ": larger than " + std::to_string(max_bytes >> 20) + " MiB"};
  }
  return text;
}

}  // namespace hwaccel
