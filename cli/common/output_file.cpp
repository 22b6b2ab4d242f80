#include "cli/common/output_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>

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

// What a file that is not a regular one is, in words, for the refusal.
const char* what_it_is(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Only a regular file is ever replaced: a device node, a FIFO, a socket or a
// folder is not ours to turn into a file, and a symbolic link is replaced by
// nothing and followed by nothing (whatever it points at stays as it is).
std::string refuse_unless_regular(const std::string& path, const struct stat& st) {
  if (S_ISREG(st.st_mode)) return "";
  return path + " is " + what_it_is(st.st_mode) +
         "; only a regular file is ever replaced, with or without --force (nothing was written)";
}

std::string base_name(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// ".NAME.tmp-PID" or ".NAME.tmp-PID-N" -> PID; 0 when `entry` is not a
// temporary of ours for NAME.
long temporary_pid(std::string_view entry, std::string_view prefix) {
  if (entry.size() <= prefix.size() || entry.substr(0, prefix.size()) != prefix) return 0;
  std::string_view digits = entry.substr(prefix.size());
  if (auto dash = digits.find('-'); dash != std::string_view::npos) {
    std::string_view serial = digits.substr(dash + 1);
    if (serial.empty() || serial.size() > 20 ||
        serial.find_first_not_of("0123456789") != std::string_view::npos)
      return 0;
    digits = digits.substr(0, dash);
  }
  // Any pid_t a process can have (up to 2^31-1: ten digits), not only this
  // machine's pid_max: the folder may have been written on another machine.
  if (digits.empty() || digits.size() > 10 || digits.front() == '0') return 0;
  long long pid = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return 0;
    pid = pid * 10 + (c - '0');
  }
  return pid > 0x7fffffffLL ? 0 : long(pid);
}

// Each write of this process gets its own serial: threads writing one file at
// once (16 Python threads calling record() on one path) each have their own
// temporary, and the last rename wins whole.
std::atomic<unsigned long> next_serial{1};

}  // namespace

void remove_stale_temporaries(const std::string& path) {
  const std::string prefix = "." + base_name(path) + ".tmp-";
  DIR* dir = ::opendir(folder_of(path).c_str());
  if (dir == nullptr) return;
  const long self = long(::getpid());
  while (const dirent* e = ::readdir(dir)) {
    long pid = temporary_pid(e->d_name, prefix);
    if (pid <= 0 || pid == self) continue;
    // A live process (ours or anyone's: EPERM) may be writing it right now.
    if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;
    struct stat st {};
    if (::fstatat(::dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (!S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) continue;
    (void)::unlinkat(::dirfd(dir), e->d_name, 0);
  }
  ::closedir(dir);
}

std::string temporary_path_for(const std::string& path, long pid, unsigned long serial) {
  auto slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return dir + "." + name + ".tmp-" + std::to_string(pid) +
         (serial ? "-" + std::to_string(serial) : "");
}

std::string write_file_atomically(const std::string& path, const std::string& bytes,
                                  ExistingFile existing, mode_t wanted) {
  // lstat, not stat: the final component is looked at, never what it points to.
  struct stat old {};
  bool exists = ::lstat(path.c_str(), &old) == 0;
  if (exists)
    if (auto refused = refuse_unless_regular(path, old); !refused.empty()) return refused;
  if (exists && existing == ExistingFile::keep)
    return path + " exists; pass --force to replace it (nothing was written)";

  // Temporaries of earlier writes killed before their rename (kill -9).
  remove_stale_temporaries(path);
  const std::string temp = temporary_path_for(path, long(::getpid()), next_serial++);
  ::unlink(temp.c_str());  // a stale one of an earlier process with our pid
  // A replaced file keeps its permissions; a new one gets the umask's. An
  // explicit mode wins over both (and the temporary never has wider bits).
  bool explicit_mode = wanted != kKeepMode;
  mode_t mode = explicit_mode ? (wanted & 07777) : exists ? (old.st_mode & 07777) : 0666;
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) return why(path, "cannot create the temporary", temp);
  if (exists || explicit_mode) (void)::fchmod(fd, mode);
  bool ok = write_all(fd, bytes) && ::fsync(fd) == 0;
  std::string failure = ok ? "" : why(path, "cannot write the temporary", temp);
  if (::close(fd) != 0 && ok) failure = why(path, "cannot write the temporary", temp);
  if (!failure.empty()) {
    ::unlink(temp.c_str());
    return failure;
  }
  // What was checked above may have been swapped meanwhile: look again just
  // before the rename, which would replace a link or a device node whole.
  struct stat now {};
  if (::lstat(path.c_str(), &now) == 0)
    if (auto refused = refuse_unless_regular(path, now); !refused.empty()) {
      ::unlink(temp.c_str());
      return refused;
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
  // mkdir's EEXIST holds for a link to a folder elsewhere too: the folder
  // written into must be a real one, or the write would land where it points.
  std::string folder = path;
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  struct stat st {};
  if (::lstat(folder.c_str(), &st) != 0)
    return "cannot create " + folder + ": " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode))
    return folder + " is " + what_it_is(st.st_mode) + ", not a folder (nothing was written)";
  return "";
}

}  // namespace hwaccel::cli
