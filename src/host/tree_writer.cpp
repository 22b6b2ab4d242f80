#include "src/host/tree_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

std::string fail(const std::string& what, const std::string& path, int code) {
  return what + " " + path + ": " + std::strerror(code);
}

std::string write_file(const std::string& real, const std::string& bytes, unsigned mode) {
  int fd = ::open(real.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
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

}  // namespace

std::string write_tree(const TreePlan& plan, const std::string& root) {
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec) return "cannot create " + root + ": " + ec.message();
  if (!fs::is_empty(root, ec) || ec) return root + ": not an empty folder";
  for (const PlannedEntry& e : plan.entries) {
    const std::string real = root + e.path;
    fs::create_directories(fs::path(real).parent_path(), ec);
    if (ec) return "cannot create " + fs::path(real).parent_path().string() + ": " + ec.message();
    switch (e.kind) {
      case PlannedEntry::Kind::dir:
        if (::mkdir(real.c_str(), 0755) != 0 && errno != EEXIST)
          return fail("cannot mkdir", real, errno);
        if (e.mode != 0755 && ::chmod(real.c_str(), e.mode) != 0)
          return fail("cannot chmod", real, errno);
        break;
      case PlannedEntry::Kind::file:
        if (auto why = write_file(real, e.bytes, e.mode); !why.empty()) return why;
        break;
      case PlannedEntry::Kind::link:
        if (::symlink(e.target.c_str(), real.c_str()) != 0) return fail("cannot link", real, errno);
        break;
    }
  }
  return "";
}

std::string make_private_temp_dir(std::string_view prefix, std::string& error) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp && *tmp ? tmp : "/tmp") + "/" + std::string(prefix) + "XXXXXX";
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
