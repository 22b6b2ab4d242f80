#include "src/host/sandbox_namespace.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

namespace hwaccel {
namespace {

bool write_proc(const char* path, const std::string& text) {
  int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

}  // namespace

std::string write_maps(uid_t uid, gid_t gid) {
  write_proc("/proc/self/setgroups", "deny");
  if (!write_proc("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1\n") ||
      !write_proc("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1\n"))
    return std::string("user namespace: cannot write its uid/gid map: ") + std::strerror(errno);
  return "";
}

std::string enter_namespace(Entered& got) {
  constexpr int kMore = CLONE_NEWPID | CLONE_NEWCGROUP;
  got = {true, true};
  if (::unshare(CLONE_NEWNS | CLONE_NEWUTS | kMore) == 0) return "";
  if (::unshare(CLONE_NEWNS | CLONE_NEWUTS) == 0) {
    got.pid = false;
    return "";
  }
  std::string first = std::string("unshare(CLONE_NEWNS): ") + std::strerror(errno);
  uid_t uid = ::geteuid();
  gid_t gid = ::getegid();
  if (::unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWUTS | kMore) != 0) {
    got.pid = false;
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWUTS) != 0)
      return first + "; unshare(CLONE_NEWUSER|CLONE_NEWNS): " + std::strerror(errno);
  }
  if (auto failed = write_maps(uid, gid); !failed.empty()) return first + "; " + failed;
  return "";
}

namespace {

bool single_threaded() {
  DIR* tasks = ::opendir("/proc/self/task");
  if (!tasks) return false;
  int n = 0;
  while (dirent* d = ::readdir(tasks)) n += d->d_name[0] != '.';
  ::closedir(tasks);
  return n == 1;
}

}  // namespace

pid_t spawn(bool use_namespace, Entered& got) {
  got = {};
  if (use_namespace && single_threaded()) {
    constexpr long kAll = CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWPID | CLONE_NEWCGROUP;
    const uid_t uid = ::geteuid();
    const gid_t gid = ::getegid();
    for (long user : {0L, static_cast<long>(CLONE_NEWUSER)}) {
      long pid = ::syscall(SYS_clone, kAll | user | SIGCHLD, nullptr, nullptr, nullptr, nullptr);
      if (pid < 0) continue;
      if (pid == 0) got = {true, true, true, user != 0, uid, gid};
      return static_cast<pid_t>(pid);
    }
  }
  return ::fork();
}

std::vector<MountLine> machine_mounts() {
  int fd = ::open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string text;
  char buf[65536];
  ssize_t n;
  while (text.size() < (8u << 20) &&
         ((n = ::read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)))
    if (n > 0) text.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return mount_lines(text);
}

}  // namespace hwaccel
