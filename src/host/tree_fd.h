// Walking a tree we made (a materialized host) by directory descriptors, never
// through a link: `hwsim materialize` writes it and `hwsim run` mounts from it, and
// a snapshot decides what links it holds. Every component is opened relative to
// its parent's descriptor with O_NOFOLLOW, so a link in the tree (or one planted in
// it while we work) is refused, never followed out of it.
#pragma once

#include <string>
#include <utility>

namespace hwaccel {

// A file descriptor closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  ~Fd();
  int get() const { return fd_; }
  // Gives the descriptor up to the caller, who closes it.
  int release() { return std::exchange(fd_, -1); }
  bool ok() const { return fd_ >= 0; }
  // A name of this very file for calls that take paths (mount(2), overlay's
  // lowerdir): whatever its old path holds by then, it is the file opened.
  std::string proc_path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

enum class Walk {
  open,       // every component must exist
  make_dirs,  // missing folders are made on the way (`rel` itself too, as a folder)
};

// An O_PATH descriptor of `rel` (a path inside the tree, "/proc/driver" or
// "proc/driver") below the folder `root` is open on; !ok() and `why` (naming the
// tree's path) when a component is missing, a link, or (before the last) not a folder.
Fd open_in_tree(int root, const std::string& rel, Walk walk, std::string& why);

}  // namespace hwaccel
