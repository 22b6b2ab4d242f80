#include "src/host/tree_writer.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
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
  explicit FolderChain(int root) : root_(root) {}

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
      if (::mkdirat(parent, component.c_str(), 0755) != 0 && errno != EEXIST) {
        why = "cannot make the tree's " + walked + ": " + std::strerror(errno);
        return fail_open();
      }
      Fd next = open_folder(parent, component);
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
  std::vector<std::string> names_;
  std::vector<Fd> fds_;
  std::string last_;
};

}  // namespace

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
    const Where real{root, e.path};
    // The last component and the folder above it ("/a/b/c": "c" in "/a/b").
    std::string_view path = e.path;
    while (!path.empty() && path.back() == '/') path.remove_suffix(1);
    const auto slash = path.rfind('/');
    const std::string_view parent = slash == std::string_view::npos ? "" : path.substr(0, slash);
    name.assign(path.substr(slash == std::string_view::npos ? 0 : slash + 1));
    if (name.empty()) return root + ": the plan names the root itself";
    if (name == "." || name == "..")
      return "cannot create " + real() + ": the tree's " + e.path + ": not a plain path";
    std::string why;
    const int dir = folders.open(parent, why);
    if (dir < 0) return "cannot create " + real() + ": " + why;
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
        if (auto failed = write_file(dir, name.c_str(), real, e.bytes, e.mode, umask_bits);
            !failed.empty())
          return failed;
        break;
      case PlannedEntry::Kind::link:
        if (::symlinkat(e.target.c_str(), dir, name.c_str()) != 0)
          return fail("cannot link", real(), errno);
        break;
    }
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
