#include "src/host/inside_tree.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include "src/host/root_path.h"
#include "src/vocabulary/path.h"

// Older C libraries lack the name; the number is the same on every architecture.
#ifndef SYS_openat2
#define SYS_openat2 437
#endif

namespace hwaccel {
namespace {

std::atomic<bool> g_openat2{true};

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& part : parts) out += "/" + part;
  return out.empty() ? "/" : out;
}

void push_reversed(std::string_view path, std::vector<std::string>& todo) {
  auto parts = path_components(path);
  todo.insert(todo.end(), parts.rbegin(), parts.rend());
}

Error leads_outside(std::string_view path, std::string_view tree, bool through_link) {
  return Error{EXDEV, std::string(path) +
                          (through_link ? ": a link leads outside " : ": \"..\" leads outside ") +
                          std::string(tree) + " (not followed)"};
}

// The part of `path` below `tree` ("" for the tree itself), or nullopt when
// `path` is not spelled as inside it.
std::optional<std::string_view> below(std::string_view tree, std::string_view path) {
  if (tree == "/") return path.substr(1);
  if (path.size() < tree.size() || path.compare(0, tree.size(), tree) != 0) return std::nullopt;
  if (path.size() == tree.size()) return std::string_view();
  if (path[tree.size()] != '/') return std::nullopt;
  return path.substr(tree.size() + 1);
}

}  // namespace

void set_openat2_enabled(bool on) {
  g_openat2 = on;
}

bool openat2_enabled() {
  return g_openat2;
}

Result<std::string> resolve_beneath(const std::vector<std::string>& trees, std::string_view path,
                                    bool follow_last, std::string_view shown_tree) {
  if (auto bad = check_host_path(path)) return *bad;
  std::vector<std::vector<std::string>> tops;
  for (const auto& tree : trees) tops.push_back(path_components(tree));
  // Inside: a tree or below it. On the way: one of a tree's own parents,
  // which an absolute link crosses to come back in.
  auto inside = [&](const std::vector<std::string>& at) {
    for (const auto& top : tops)
      if (at.size() >= top.size() && std::equal(top.begin(), top.end(), at.begin())) return true;
    return false;
  };
  auto on_the_way = [&](const std::vector<std::string>& at) {
    for (const auto& top : tops)
      if (at.size() < top.size() && std::equal(at.begin(), at.end(), top.begin())) return true;
    return false;
  };
  std::vector<std::string> done;
  std::vector<std::string> todo;
  push_reversed(path, todo);
  int follows = 0;
  while (!todo.empty()) {
    std::string name = std::move(todo.back());
    todo.pop_back();
    if (name == ".") continue;
    std::vector<std::string> next = done;
    if (name == "..") {
      if (!next.empty()) next.pop_back();
    } else {
      next.push_back(name);
    }
    // Never a look (not even an lstat) at a name outside the tree.
    if (!inside(next) && !on_the_way(next)) return leads_outside(path, shown_tree, follows > 0);
    if (name == "..") {
      done = std::move(next);
      continue;
    }
    const bool last = todo.empty();
    if (last && !follow_last) {
      done = std::move(next);
      break;
    }
    const std::string real = join(next);
    struct stat st {};
    if (::lstat(real.c_str(), &st) != 0) return make_error(errno, path);
    if (S_ISLNK(st.st_mode)) {
      if (++follows > kMaxSymlinkFollows) return make_error(ELOOP, path);
      auto target = read_link_target(real, path);
      if (!target.ok()) return target.error();
      if (target->empty()) return make_error(ENOENT, path);  // as Linux does
      if (target->front() == '/') done.clear();
      push_reversed(*target, todo);
      continue;
    }
    if (!last && !S_ISDIR(st.st_mode)) return make_error(ENOTDIR, path);
    done = std::move(next);
  }
  if (!inside(done)) return leads_outside(path, shown_tree, follows > 0);
  return join(done);
}

InsideTree::InsideTree(std::string tree, std::string shown, std::vector<std::string> also)
    : tree_(std::move(tree)), shown_(std::move(shown)), also_(std::move(also)) {
  while (tree_.size() > 1 && tree_.back() == '/') tree_.pop_back();
  if (shown_.empty()) shown_ = tree_;
}

bool InsideTree::holds(std::string_view path) const {
  return !path.empty() && path.front() == '/' && below(tree_, path).has_value();
}

void InsideTree::open_tree() {
  std::call_once(once_, [this] {
    if (auto bad = check_host_path(tree_)) {
      error_ = bad->code;
      return;
    }
    char* canonical = ::realpath(tree_.c_str(), nullptr);
    if (canonical == nullptr) {
      error_ = errno;
      return;
    }
    real_ = canonical;
    std::free(canonical);
    dir_ = Fd(::open(real_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!dir_.ok()) error_ = errno;
  });
}

Result<Fd> InsideTree::open(std::string_view path, int flags, bool follow_last) {
  if (auto bad = check_host_path(path)) return *bad;
  auto rel = below(tree_, path);
  if (!rel) return Error{EXDEV, std::string(path) + ": outside " + shown_};
  open_tree();
  if (error_ != 0) return make_error(error_, path);
  flags |= O_CLOEXEC;
  if (g_openat2.load(std::memory_order_relaxed)) {
    open_how how{};
    how.flags = static_cast<std::uint64_t>(flags | (follow_last ? 0 : O_NOFOLLOW));
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    const std::string relative = rel->empty() ? "." : std::string(*rel);
    // EAGAIN: a rename or mount anywhere on the machine during a lookup with
    // ".." (sysfs links are "../../devices/..."), which the kernel cannot then
    // prove stayed beneath; it asks the caller to retry. Under load (other
    // runs mounting namespaces) that made a device's sysfs files vanish for a
    // moment. Retried, then the walk decides.
    long fd = -1;
    int code = 0;
    for (int attempt = 0; attempt < 8; ++attempt) {
      fd = ::syscall(SYS_openat2, dir_.get(), relative.c_str(), &how, sizeof how);
      code = errno;
      if (fd >= 0 || code != EAGAIN) break;
    }
    if (fd >= 0) return Fd(static_cast<int>(fd));
    if (code == ENOSYS) g_openat2 = false;
    // EXDEV: a step the kernel will not take beneath the folder (an absolute
    // link may still come back in); ELOOP: a loop, or a magic link; EPERM,
    // E2BIG: a filter or an older openat2; EAGAIN: still racing. The walk decides.
    if (code != EXDEV && code != ELOOP && code != ENOSYS && code != EPERM && code != E2BIG &&
        code != EAGAIN)
      return make_error(code, path);
  }
  std::vector<std::string> trees = also_;
  trees.push_back(real_);
  auto real = resolve_beneath(
      trees,
      real_ == "/" ? std::string(path) : real_ + (rel->empty() ? "" : "/") + std::string(*rel),
      follow_last, shown_);
  if (!real.ok()) {
    // Name the path as asked, not the canonical one the walk saw.
    Error error = real.error();
    if (error.code != EXDEV) return make_error(error.code, path);
    return leads_outside(path, shown_, error.message.find("a link") != std::string::npos);
  }
  Fd fd(::open(real->c_str(), flags | O_NOFOLLOW));
  if (!fd.ok()) return make_error(errno, path);
  return fd;
}

Result<RegularFile> open_regular_inside(InsideTree& tree, std::string_view path,
                                        bool keep_nonblock) {
  auto looked = tree.open(path, O_PATH);
  if (!looked) return looked.error();
  struct stat st {};
  if (::fstat(looked->get(), &st) != 0) return make_error(errno, path);
  if (S_ISDIR(st.st_mode)) return make_error(EISDIR, path);
  if (!S_ISREG(st.st_mode))
    return Error{EINVAL, std::string(path) + ": " + std::string(file_kind_phrase(st.st_mode)) +
                             ", not a regular file"};
  // The file looked at, opened for reading through its descriptor's name in
  // /proc (whatever its path holds by now); without /proc, by the path again.
  int fd = ::open(looked->proc_path().c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0 && errno == ENOENT) {
    auto again = tree.open(path, O_RDONLY | O_NONBLOCK);
    if (!again) return again.error();
    fd = ::fcntl(again->get(), F_DUPFD_CLOEXEC, 0);
  }
  if (fd < 0) return make_error(errno, path);
  return regular_file_of(fd, path, keep_nonblock);
}

Result<std::string> canonical_path(const std::string& path) {
  if (auto bad = check_host_path(path)) return *bad;
  char* canonical = ::realpath(path.c_str(), nullptr);
  if (canonical == nullptr) return make_error(errno, path);
  std::string out = canonical;
  std::free(canonical);
  return out;
}

Result<std::string> read_link_of(const Fd& fd, std::string_view shown) {
  std::string buffer(256, '\0');
  for (;;) {
    const ssize_t n = ::readlinkat(fd.get(), "", buffer.data(), buffer.size());
    if (n < 0) return make_error(errno, shown);
    if (static_cast<std::size_t>(n) < buffer.size()) {
      buffer.resize(static_cast<std::size_t>(n));
      return buffer;
    }
    if (buffer.size() >= (1u << 20)) return make_error(ENAMETOOLONG, shown);
    buffer.resize(buffer.size() * 2);
  }
}

}  // namespace hwaccel
