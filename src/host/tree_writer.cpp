#include "src/host/tree_writer.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "src/host/tree_fd.h"
#include "src/vocabulary/path.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

std::string fail(const std::string& what, const std::string& path, int code) {
  return what + " " + path + ": " + std::strerror(code);
}

std::string write_file(int dir, const std::string& name, const std::string& real,
                       const std::string& bytes, unsigned mode) {
  int fd = ::openat(dir, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return fail("cannot create", real, errno);
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int code = errno;
      ::close(fd);
      return fail("cannot write", real, code);
    }
    done += static_cast<std::size_t>(n);
  }
  // The mode last: a 0000 file is still written by its (non-root) owner.
  if (::fchmod(fd, mode) != 0) {
    int code = errno;
    ::close(fd);
    return fail("cannot chmod", real, code);
  }
  if (::close(fd) != 0) return fail("cannot close", real, errno);
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

}  // namespace

std::string write_tree(const TreePlan& plan, const std::string& root) {
  return write_tree(plan, root, nullptr);
}

std::string write_tree(const TreePlan& plan, const std::string& root,
                       const std::function<void(const std::string&)>& before_each) {
  if (!plan.error.empty()) return plan.error;
  Fd top;
  if (auto why = open_root(root, top); !why.empty()) return why;
  std::string last_parent;  // entries come folder by folder: its descriptor is kept
  Fd dir;
  for (const PlannedEntry& e : plan.entries) {
    if (before_each) before_each(e.path);
    const std::string real = root + e.path;
    auto parts = path_components(e.path);
    if (parts.empty()) return root + ": the plan names the root itself";
    const std::string name = parts.back();
    const std::string parent = parent_dir(e.path);
    if (!dir.ok() || parent != last_parent) {
      std::string why;
      dir = open_in_tree(top.get(), parent, Walk::make_dirs, why);
      if (!dir.ok()) return "cannot create " + real + ": " + why;
      last_parent = parent;
    }
    switch (e.kind) {
      case PlannedEntry::Kind::dir: {
        if (::mkdirat(dir.get(), name.c_str(), 0755) != 0 && errno != EEXIST)
          return fail("cannot mkdir", real, errno);
        // A folder already there (made for an entry below it) is fine; a link is not.
        Fd made(::openat(dir.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!made.ok())
          return fail("cannot mkdir", real, errno == ELOOP ? ENOTDIR : errno) +
                 (errno == ELOOP ? " (a symbolic link is there; never followed)" : "");
        if (e.mode != 0755 && ::fchmod(made.get(), e.mode) != 0)
          return fail("cannot chmod", real, errno);
        break;
      }
      case PlannedEntry::Kind::file:
        if (auto failed = write_file(dir.get(), name, real, e.bytes, e.mode); !failed.empty())
          return failed;
        break;
      case PlannedEntry::Kind::link:
        if (::symlinkat(e.target.c_str(), dir.get(), name.c_str()) != 0)
          return fail("cannot link", real, errno);
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
