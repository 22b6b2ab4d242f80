#include "cli/common/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace hwaccel::cli {

namespace {

// Every message names the file the user asked for first, then the step.
std::string why(const std::string& target, const std::string& what, const std::string& path) {
  return "cannot write " + target + ": " + what + " " + path + ": " + std::strerror(errno);
}

// Folder of `path` ("." for a bare name), for fsync after the rename.
std::string folder_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool write_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

// rename() that fails with EEXIST instead of replacing: renameat2 where the
// file system has it, else link() + unlink(), which is atomic too.
int rename_no_replace(const std::string& from, const std::string& to) {
#ifdef RENAME_NOREPLACE
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return -1;
#endif
  if (::link(from.c_str(), to.c_str()) != 0) return -1;
  ::unlink(from.c_str());
  return 0;
}

}  // namespace

std::string temporary_path_for(const std::string& path, long pid) {
  auto slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return dir + "." + name + ".tmp-" + std::to_string(pid);
}

std::string write_file_atomically(const std::string& path, const std::string& bytes,
                                  ExistingFile existing, mode_t wanted) {
  struct stat old {};
  bool exists = ::stat(path.c_str(), &old) == 0;
  if (exists && existing == ExistingFile::keep)
    return path + " exists; pass --force to replace it (nothing was written)";
  if (exists && S_ISDIR(old.st_mode)) return path + " is a directory";

  const std::string temp = temporary_path_for(path, long(::getpid()));
  ::unlink(temp.c_str());  // a stale one of an earlier process with our pid
  // A replaced file keeps its permissions; a new one gets the umask's. An
  // explicit mode wins over both (and the temporary never has wider bits).
  bool explicit_mode = wanted != kKeepMode;
  mode_t mode = explicit_mode ? (wanted & 07777) : exists ? (old.st_mode & 07777) : 0666;
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) return why(path, "cannot create the temporary", temp);
  if (exists || explicit_mode) (void)::fchmod(fd, mode);
  bool ok = write_all(fd, bytes) && ::fsync(fd) == 0;
  std::string failure = ok ? "" : why(path, "cannot write the temporary", temp);
  if (::close(fd) != 0 && ok) failure = why(path, "cannot write the temporary", temp);
  if (!failure.empty()) {
    ::unlink(temp.c_str());
    return failure;
  }
  int renamed = existing == ExistingFile::keep ? rename_no_replace(temp, path)
                                               : ::rename(temp.c_str(), path.c_str());
  if (renamed != 0) {
    std::string reason = errno == EEXIST
                             ? path + " appeared while writing; pass --force to replace it"
                             : why(path, "cannot rename the temporary", temp);
    ::unlink(temp.c_str());
    return reason;
  }
  // The rename itself is durable only once the folder is.
  int dir = ::open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    (void)::fsync(dir);
    ::close(dir);
  }
  return "";
}

std::string make_directories(const std::string& path, mode_t mode) {
  // One level at a time, so that each new folder gets `mode` (private cache
  // folders are 0700); existing ones are left as they are.
  std::size_t start = 0;
  while (start <= path.size()) {
    auto slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    std::string partial = path.substr(0, slash);
    if (!partial.empty() && ::mkdir(partial.c_str(), mode) != 0 && errno != EEXIST)
      return "cannot create " + partial + ": " + std::strerror(errno);
    start = slash + 1;
  }
  return "";
}

}  // namespace hwaccel::cli
