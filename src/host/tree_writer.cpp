#include "src/host/tree_writer.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sched.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <new>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_set>
#include <vector>

#include "src/host/tree_fd.h"
#include "src/vocabulary/path.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

std::string fail(const std::string& what, const std::string& path, int code) {
  return what + " " + path + ": " + std::strerror(code);
}

// An entry's path on disk, for messages only (built when one is needed).
struct Where {
  const std::string& root;
  const std::string& path;
  std::string operator()() const { return root + path; }
};

// The bits the process's umask takes from a mode given to open(2) or mkdir(2).
// Read once per tree (umask(2) can only be read by setting it; set back at once).
mode_t current_umask() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

// Created with its final mode (a 0000 file is still written through the
// descriptor that created it); chmod-ed after only where the umask took bits from
// it. Three system calls for a file the umask leaves alone, the most of a tree.
std::string write_file(int dir, const char* name, const Where& real, std::string_view bytes,
                       unsigned mode, mode_t umask_bits) {
  int fd = ::openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 07777);
  if (fd < 0) return fail("cannot create", real(), errno);
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int code = errno;
      ::close(fd);
      return fail("cannot write", real(), code);
    }
    done += static_cast<std::size_t>(n);
  }
  if ((mode & umask_bits) != 0 && ::fchmod(fd, mode) != 0) {
    int code = errno;
    ::close(fd);
    return fail("cannot chmod", real(), code);
  }
  if (::close(fd) != 0) return fail("cannot close", real(), errno);
  return "";
}

// The root folder, opened without following a link: made when missing (its
// parents are the user's path, made as they are), else it must be an empty
// folder of ours.
std::string open_root(const std::string& root, Fd& out) {
  std::error_code ec;
  fs::path parent = fs::path(root).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec) return "cannot create " + parent.string() + ": " + ec.message();
  if (::mkdir(root.c_str(), 0755) != 0 && errno != EEXIST)
    return fail("cannot create", root, errno);
  Fd fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.ok()) {
    if (errno == ELOOP || errno == ENOTDIR)
      return root + ": not a folder (a symbolic link or a file; never followed)";
    return fail("cannot open", root, errno);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return fail("cannot stat", root, errno);
  if (st.st_uid != ::geteuid())
    return root + ": owned by another user (uid " + std::to_string(st.st_uid) +
           "): refused, they could change the tree under us";
  DIR* listing = ::fdopendir(::fcntl(fd.get(), F_DUPFD_CLOEXEC, 0));
  if (!listing) return fail("cannot list", root, errno);
  bool empty = true;
  while (dirent* d = ::readdir(listing)) {
    std::string name = d->d_name;
    if (name != "." && name != "..") empty = false;
  }
  ::closedir(listing);
  if (!empty) return root + ": not an empty folder";
  out = std::move(fd);
  return "";
}

// The folders above the entry being written, from the root down, each an
// O_PATH descriptor opened relative to the one above it with O_NOFOLLOW (never
// through a link: one there, planted or planned, is refused). The plan's entries
// come folder by folder, mostly in order: the next entry's folder shares most of
// the chain, and only the rest is opened (a walk from the root for each folder
// cost four system calls a component, about 40,000 for a DGX's tree). At most
// one descriptor a component is held.
class FolderChain {
 public:
  // `made`: the folders were made before (by the folder pass): each is opened
  // first, and made only where missing.
  explicit FolderChain(int root, bool made = false) : root_(root), made_(made) {}

  // A descriptor of `dir` ("/a/b", "" for the root), its missing folders made;
  // -1 and `why` (naming the tree's path) when a component is a link or not a folder.
  int open(std::string_view dir, std::string& why) {
    if (dir == last_) return fds_.empty() ? root_ : fds_.back().get();
    std::size_t depth = 0, at = 0;
    while (true) {
      while (at < dir.size() && dir[at] == '/') ++at;
      if (at >= dir.size()) break;
      std::size_t end = dir.find('/', at);
      if (end == std::string_view::npos) end = dir.size();
      const std::string_view part = dir.substr(at, end - at);
      if (depth < names_.size() && names_[depth] == part) {
        ++depth;
        at = end;
        continue;
      }
      names_.resize(depth);
      fds_.resize(depth);
      const std::string walked(dir.substr(0, end));
      if (part == "." || part == "..") {
        why = "the tree's " + walked + ": not a plain path";
        return fail_open();
      }
      const int parent = depth == 0 ? root_ : fds_.back().get();
      const std::string component(part);
      // Made first: most folders of a plan are only the parents of its files.
      Fd next = made_ ? open_folder(parent, component) : Fd();
      if (!next.ok() && (!made_ || errno == ENOENT)) {
        if (::mkdirat(parent, component.c_str(), 0755) != 0 && errno != EEXIST) {
          why = "cannot make the tree's " + walked + ": " + std::strerror(errno);
          return fail_open();
        }
        next = open_folder(parent, component);
      }
      if (!next.ok()) {
        why = "the tree's " + walked + refusal(parent, component, errno);
        return fail_open();
      }
      names_.push_back(component);
      fds_.push_back(std::move(next));
      ++depth;
      at = end;
    }
    names_.resize(depth);
    fds_.resize(depth);
    last_.assign(dir);
    return depth == 0 ? root_ : fds_.back().get();
  }

 private:
  static Fd open_folder(int parent, const std::string& name) {
    return Fd(::openat(parent, name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  }

  // Why `name` in `parent` could not be opened as a folder (ENOTDIR: a link or a file).
  static std::string refusal(int parent, const std::string& name, int code) {
    struct stat st {};
    if (code == ENOTDIR && ::fstatat(parent, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
      if (S_ISLNK(st.st_mode)) return " is a symbolic link (never followed)";
      if (!S_ISDIR(st.st_mode)) return " is not a folder";
    }
    return std::string(": ") + std::strerror(code);
  }

  int fail_open() {
    names_.clear();
    fds_.clear();
    last_.clear();
    return -1;
  }

  int root_;
  bool made_;
  std::vector<std::string> names_;
  std::vector<Fd> fds_;
  std::string last_;
};

// An entry's folder and last component ("/a/b/c": "/a/b" and "c"; trailing
// slashes left out, as the writer leaves them).
struct SplitPath {
  std::string_view parent, name;
};
SplitPath split_path(std::string_view path) {
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  const auto slash = path.rfind('/');
  if (slash == std::string_view::npos) return {"", path};
  return {path.substr(0, slash), path.substr(slash + 1)};
}

// Which entries one walk over the plan writes: all of them (the sequential
// writer), the folders only (with every folder the plan implies), or the files
// and links only (their folders already made).
enum class Pass { all, folders, leaves };

// Writes one entry (`name` is scratch); "" or what failed, the same message
// whichever pass writes it.
std::string write_entry(FolderChain& folders, const PlannedEntry& e, const std::string& root,
                        std::string& name, mode_t umask_bits, Pass pass) {
  const Where real{root, e.path};
  const SplitPath split = split_path(e.path);
  name.assign(split.name);
  if (name.empty()) return root + ": the plan names the root itself";
  if (name == "." || name == "..")
    return "cannot create " + real() + ": the tree's " + e.path + ": not a plain path";
  const bool is_dir = e.kind == PlannedEntry::Kind::dir;
  if (pass == Pass::leaves && is_dir) return "";
  std::string why;
  const int dir = folders.open(split.parent, why);
  if (dir < 0) return "cannot create " + real() + ": " + why;
  if (pass == Pass::folders && !is_dir) return "";
  switch (e.kind) {
    case PlannedEntry::Kind::dir: {
      const bool made_now = ::mkdirat(dir, name.c_str(), 0755) == 0;
      if (!made_now && errno != EEXIST) return fail("cannot mkdir", real(), errno);
      if (made_now && e.mode == 0755) break;  // a new folder of ours, as planned
      // A folder already there (made for an entry below it) is fine; a link is not.
      Fd made(::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (!made.ok())
        return fail("cannot mkdir", real(), errno == ELOOP ? ENOTDIR : errno) +
               (errno == ELOOP ? " (a symbolic link is there; never followed)" : "");
      if (e.mode != 0755 && ::fchmod(made.get(), e.mode) != 0)
        return fail("cannot chmod", real(), errno);
      break;
    }
    case PlannedEntry::Kind::file:
      return write_file(dir, name.c_str(), real, e.bytes, e.mode, umask_bits);
    case PlannedEntry::Kind::link:
      if (::symlinkat(e.target.c_str(), dir, name.c_str()) != 0)
        return fail("cannot link", real(), errno);
      break;
  }
  return "";
}

// Whether the plan's order is free for the parallel writer: plain paths ("/a/b",
// no "//", ".", ".." or trailing "/"), no path planned both as a file or link and
// as a folder (itself, or above another entry), the files and links of one folder
// in one stretch of the plan (a split between stretches never parts two entries of
// one name), and folder modes that let us write in them (owner rwx, no
// set-id/sticky bits: their modes are set before their files are written). Any
// other plan is written in order, as written it fails or succeeds the same way.
bool order_free(const TreePlan& plan) {
  std::unordered_set<std::string_view> folders, stretches;
  std::string_view stretch;
  bool any_leaf = false;
  for (const PlannedEntry& e : plan.entries) {
    const std::string_view path = e.path;
    if (path == "/" || !is_normal_absolute(path)) return false;
    const SplitPath split = split_path(path);
    // The folder and the ones above it (stopping at the first already known).
    for (std::string_view up = split.parent; !up.empty() && folders.insert(up).second;)
      up = split_path(up).parent;
    if (e.kind == PlannedEntry::Kind::dir) {
      if ((e.mode & 07700) != 0700) return false;
      folders.insert(path);
    } else if (!any_leaf || split.parent != stretch) {
      if (!stretches.insert(split.parent).second) return false;
      stretch = split.parent;
      any_leaf = true;
    }
  }
  for (const PlannedEntry& e : plan.entries)
    if (e.kind != PlannedEntry::Kind::dir && folders.count(e.path) != 0) return false;
  return true;
}

// The first failure of one stretch of the plan: its index, and the message.
struct Failure {
  std::size_t at = std::numeric_limits<std::size_t>::max();
  std::string why;
};

// Writes the files and links of entries [from, to), in order, with a chain of
// its own; stops at the first failure.
void write_leaves(const TreePlan& plan, std::size_t from, std::size_t to, int top,
                  const std::string& root, mode_t umask_bits, Failure& failed) {
  FolderChain folders(top, /*made=*/true);
  std::string name;
  for (std::size_t i = from; i < to; ++i) {
    auto why = write_entry(folders, plan.entries[i], root, name, umask_bits, Pass::leaves);
    if (!why.empty()) {
      failed = {i, std::move(why)};
      return;
    }
  }
}

// Where the stretches of `count` threads over entries [0, end) begin: near equal
// shares, each moved on past the files and links of the folder it would split.
std::vector<std::size_t> stretch_starts(const TreePlan& plan, std::size_t end, unsigned count) {
  std::vector<std::size_t> starts{0};
  for (unsigned k = 1; k < count; ++k) {
    std::size_t at = std::max(starts.back(), end * k / count);
    std::string_view folder;
    for (std::size_t back = at; back > starts.back();) {
      const PlannedEntry& e = plan.entries[--back];
      if (e.kind == PlannedEntry::Kind::dir) continue;
      folder = split_path(e.path).parent;
      break;
    }
    while (at < end && (plan.entries[at].kind == PlannedEntry::Kind::dir ||
                        split_path(plan.entries[at].path).parent == folder))
      ++at;
    starts.push_back(at);
  }
  starts.push_back(end);
  return starts;
}

// Waits until the kernel has let go of a joined thread. pthread_join returns when
// the thread's exit clears its tid (mm_release, torvalds/linux kernel/fork.c, from
// exit_mm in do_exit), before exit_notify takes it out of the thread group
// (kernel/exit.c, the same do_exit): until then
// unshare(CLONE_NEWUSER) fails with EINVAL, and spawn() (sandbox_namespace.cpp)
// still lists two tasks and would not clone the namespace. Bounded.
void await_gone(pid_t tid) {
  for (int tries = 0; tries < 100000; ++tries) {
    if (::tgkill(::getpid(), tid, 0) != 0 && errno == ESRCH) return;
    ::sched_yield();
  }
}

}  // namespace

std::string write_tree_parallel(const TreePlan& plan, const std::string& root, unsigned threads,
                                const std::function<void()>& after_folders) {
  if (threads == 0) threads = std::min(std::thread::hardware_concurrency(), 4u);
  if (threads < 2 || plan.entries.size() < kParallelFrom || !plan.error.empty() ||
      !order_free(plan))
    return write_tree(plan, root);
  Fd top;
  if (auto why = open_root(root, top); !why.empty()) return why;
  const mode_t umask_bits = current_umask();
  // Every folder first, in order, as the sequential writer makes them.
  Failure folder_failed;
  {
    FolderChain folders(top.get());
    std::string name;
    for (std::size_t i = 0; i < plan.entries.size(); ++i) {
      auto why = write_entry(folders, plan.entries[i], root, name, umask_bits, Pass::folders);
      if (!why.empty()) {
        folder_failed = {i, std::move(why)};
        break;
      }
    }
  }
  if (after_folders) after_folders();
  // Then the files and links before any failure, one stretch a thread; the
  // first stretch on this one.
  const std::size_t end = std::min(folder_failed.at, plan.entries.size());
  const auto starts = stretch_starts(plan, end, threads);
  std::vector<Failure> failed(threads);
  std::vector<pid_t> tids(threads, 0);
  {
    std::vector<std::jthread> workers;
    for (unsigned k = 1; k < threads; ++k) {
      auto work = [&, k] {
        tids[k] = ::gettid();
        // An exception may not leave a thread (std::terminate): a failure like any other.
        try {
          write_leaves(plan, starts[k], starts[k + 1], top.get(), root, umask_bits, failed[k]);
        } catch (const std::bad_alloc&) {
          failed[k].at = starts[k];
          failed[k].why = "out of memory";  // short: no allocation to fail again
        }
      };
      try {
        workers.emplace_back(work);
      } catch (const std::system_error&) {
        work();  // no thread to be had: written here
        tids[k] = 0;
      }
    }
    write_leaves(plan, starts[0], starts[1], top.get(), root, umask_bits, failed[0]);
  }  // joined
  for (pid_t tid : tids)
    if (tid != 0) await_gone(tid);
  failed.push_back(std::move(folder_failed));
  auto first = std::min_element(failed.begin(), failed.end(),
                                [](const Failure& a, const Failure& b) { return a.at < b.at; });
  return first->why;
}

std::string write_tree(const TreePlan& plan, const std::string& root) {
  return write_tree(plan, root, nullptr);
}

std::string write_tree(const TreePlan& plan, const std::string& root,
                       const std::function<void(const std::string&)>& before_each) {
  if (!plan.error.empty()) return plan.error;
  Fd top;
  if (auto why = open_root(root, top); !why.empty()) return why;
  const mode_t umask_bits = current_umask();
  FolderChain folders(top.get());
  std::string name;
  for (const PlannedEntry& e : plan.entries) {
    if (before_each) before_each(e.path);
    if (auto failed = write_entry(folders, e, root, name, umask_bits, Pass::all); !failed.empty())
      return failed;
  }
  return "";
}

std::string make_private_temp_dir(std::string_view prefix, std::string& error,
                                  const std::string& in) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = (!in.empty() ? in : std::string(tmp && *tmp ? tmp : "/tmp")) + "/" +
                        std::string(prefix) + "XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    error = fail("cannot create a temporary folder", pattern, errno);
    return "";
  }
  return pattern;
}

std::string current_directory(std::string& error) {
  std::error_code ec;
  auto cwd = fs::current_path(ec);
  if (ec) error = "cannot tell the current folder: " + ec.message();
  return ec ? "" : cwd.string();
}

std::string remove_tree(const std::string& root) {
  // An empty folder (a run's, once its namespace is gone) goes at once; anything
  // else (entries, a file, a link: rmdir never follows one) is walked.
  if (::rmdir(root.c_str()) == 0) return "";
  std::error_code ec;
  // Folders made unreadable (mode 0000 entries are files, but be safe) are opened up first.
  for (auto it = fs::recursive_directory_iterator(
           root, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec)) ::chmod(it->path().c_str(), 0755);
  }
  ec.clear();
  fs::remove_all(root, ec);
  return ec ? "cannot remove " + root + ": " + ec.message() : "";
}

}  // namespace hwaccel
