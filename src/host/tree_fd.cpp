#include "src/host/tree_fd.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "src/vocabulary/path.h"

namespace hwaccel {

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {

// The whole path in one call where the kernel has openat2(2) (Linux 5.6): refused
// (no descriptor) at any link on the way, at a "..", or at anything that is not
// what the walk below would accept; the walk below then says why, component by
// component. A link as the last component comes back as the link (O_PATH with
// O_NOFOLLOW) and is refused here too.
Fd open_at_once(int root, const std::vector<std::string>& parts, Walk walk) {
#ifdef SYS_openat2
  std::string path;
  for (const auto& part : parts) path += (path.empty() ? "" : "/") + part;
  struct open_how how {};
  how.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC | (walk == Walk::make_dirs ? O_DIRECTORY : 0);
  how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH;
  Fd fd(static_cast<int>(::syscall(SYS_openat2, root, path.c_str(), &how, sizeof how)));
  struct stat st {};
  if (!fd.ok() || ::fstat(fd.get(), &st) != 0 || S_ISLNK(st.st_mode)) return Fd();
  return fd;
#else
  (void)root;
  (void)parts;
  (void)walk;
  return Fd();
#endif
}

}  // namespace

Fd open_in_tree(int root, const std::string& rel, Walk walk, std::string& why) {
  // One system call instead of four a component (this was most of `hwsim run`'s
  // walks in its namespace: issue 37); "." and ".." always take the walk, which
  // refuses them by name.
  const auto parts = path_components(rel);
  if (!parts.empty() && std::none_of(parts.begin(), parts.end(),
                                     [](const std::string& p) { return p == "." || p == ".."; }))
    if (Fd fd = open_at_once(root, parts, walk); fd.ok()) return fd;
  Fd cur(::fcntl(root, F_DUPFD_CLOEXEC, 0));
  if (!cur.ok()) {
    why = std::string("dup: ") + std::strerror(errno);
    return Fd();
  }
  std::string walked;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    walked += "/" + part;
    if (part == "." || part == "..") {
      why = "the tree's " + walked + ": not a plain path";
      return Fd();
    }
    if (walk == Walk::make_dirs && ::mkdirat(cur.get(), part.c_str(), 0755) != 0 &&
        errno != EEXIST) {
      why = "cannot make the tree's " + walked + ": " + std::strerror(errno);
      return Fd();
    }
    Fd next(::openat(cur.get(), part.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
    struct stat st {};
    if (!next.ok() || ::fstat(next.get(), &st) != 0) {
      why = "the tree's " + walked + ": " + std::strerror(errno);
      return Fd();
    }
    if (S_ISLNK(st.st_mode)) {
      why = "the tree's " + walked + " is a symbolic link (never followed)";
      return Fd();
    }
    const bool last = i + 1 == parts.size();
    if ((!last || walk == Walk::make_dirs) && !S_ISDIR(st.st_mode)) {
      why = "the tree's " + walked + " is not a folder";
      return Fd();
    }
    cur = std::move(next);
  }
  return cur;
}

}  // namespace hwaccel
