#include "src/host/tree_source.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>

#include "src/host/root_path.h"
#include "src/vocabulary/path.h"

namespace hwaccel {
namespace {

FileKind kind_of_mode(mode_t mode) {
  if (S_ISDIR(mode)) return FileKind::directory;
  if (S_ISLNK(mode)) return FileKind::symlink;
  if (S_ISCHR(mode)) return FileKind::char_device;
  if (S_ISBLK(mode)) return FileKind::block_device;
  if (S_ISFIFO(mode)) return FileKind::fifo;
  if (S_ISSOCK(mode)) return FileKind::socket;
  return FileKind::regular;
}

}  // namespace

DiskTree::DiskTree(std::string root) : root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

// The walk of an import only descends into folders it has lstat'ed, so a path's
// folders are real folders, never links: a plain join is enough (and a tenth of the
// system calls of resolve_in_root). Paths with ".." are refused; the last component
// is never followed (lstat, O_NOFOLLOW). Not a boundary against a tree changed
// while it is walked, like root_path.h.
Result<std::string> DiskTree::real(std::string_view path) const {
  if (auto bad = check_host_path(path)) return *bad;
  auto normal = normalize_absolute(path);
  if (!normal || has_dotdot(path)) return make_error(EINVAL, path);
  return *normal == "/" ? root_ : root_ + *normal;
}

Result<TreeNode> DiskTree::lstat(std::string_view path) {
  auto real_path = real(path);
  if (!real_path.ok()) return real_path.error();
  struct stat st {};
  // The root itself may be a link to the tree; nothing below it is followed.
  int rc = path == "/" ? ::stat(real_path->c_str(), &st) : ::lstat(real_path->c_str(), &st);
  if (rc != 0) return make_error(errno, path);
  return TreeNode{kind_of_mode(st.st_mode), static_cast<std::uint64_t>(st.st_size)};
}

Result<std::vector<std::string>> DiskTree::list(std::string_view dir) {
  auto real_path = real(dir);
  if (!real_path.ok()) return real_path.error();
  int fd = ::open(real_path->c_str(),
                  O_RDONLY | O_DIRECTORY | O_CLOEXEC | (dir == "/" ? 0 : O_NOFOLLOW));
  if (fd < 0) return make_error(errno, dir);
  std::unique_ptr<DIR, int (*)(DIR*)> handle(::fdopendir(fd), &::closedir);
  if (!handle) {
    int code = errno;
    ::close(fd);
    return make_error(code, dir);
  }
  std::vector<std::string> names;
  for (;;) {
    errno = 0;
    const dirent* entry = ::readdir(handle.get());
    if (entry == nullptr) break;
    std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  if (errno != 0) return make_error(errno, dir);
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::string> DiskTree::readlink(std::string_view path) {
  auto real_path = real(path);
  if (!real_path.ok()) return real_path.error();
  return read_link_target(*real_path, path);
}

Result<CappedRead> DiskTree::read(std::string_view path, std::size_t cap) {
  auto real_path = real(path);
  if (!real_path.ok()) return real_path.error();
  // O_NONBLOCK: a FIFO that slipped in between lstat and open must not hang us.
  int fd = ::open(real_path->c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return make_error(errno, path);
  CappedRead out;
  char buffer[64 * 1024];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int code = errno;
      ::close(fd);
      return make_error(code, path);
    }
    if (n == 0) break;
    std::size_t room = cap - out.bytes.size();
    if (static_cast<std::size_t>(n) > room) {
      out.bytes.append(buffer, room);
      out.truncated = true;
      break;
    }
    out.bytes.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

}  // namespace hwaccel
