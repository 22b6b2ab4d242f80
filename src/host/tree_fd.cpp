#include "src/host/tree_fd.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "src/vocabulary/path.h"

namespace hwaccel {

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

Fd open_in_tree(int root, const std::string& rel, Walk walk, std::string& why) {
  Fd cur(::fcntl(root, F_DUPFD_CLOEXEC, 0));
  if (!cur.ok()) {
    why = std::string("dup: ") + std::strerror(errno);
    return Fd();
  }
  const auto parts = path_components(rel);
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
