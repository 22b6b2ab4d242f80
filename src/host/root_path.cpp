#include "src/host/root_path.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace hwaccel {
namespace {

// The components of `path` in reverse order, so that pop_back() yields the next one.
void push_components_reversed(std::string_view path, std::vector<std::string>& todo) {
  std::vector<std::string> parts;
  std::size_t at = 0;
  while (at < path.size()) {
    std::size_t slash = path.find('/', at);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > at) parts.emplace_back(path.substr(at, slash - at));
    at = slash + 1;
  }
  todo.insert(todo.end(), parts.rbegin(), parts.rend());
}

// base + "/a/b/c"; the root itself when there are no parts.
std::string join(const std::string& base, const std::vector<std::string>& parts) {
  if (parts.empty()) return base.empty() ? "/" : base;
  std::string out = base;
  for (const auto& part : parts) out += "/" + part;
  return out;
}

std::string join(const std::string& base, const std::vector<std::string>& parts,
                 const std::string& name) {
  std::string out = base;
  for (const auto& part : parts) out += "/" + part;
  return out + "/" + name;
}

}  // namespace

// readlink(2) into a buffer that grows: st_size of a link is not to be trusted
// (procfs reports 0 or 64 whatever the target).
Result<std::string> read_link_target(const std::string& real, std::string_view context) {
  std::string buffer(256, '\0');
  for (;;) {
    ssize_t n = ::readlink(real.c_str(), buffer.data(), buffer.size());
    if (n < 0) return make_error(errno, context);
    if (static_cast<std::size_t>(n) < buffer.size()) {
      buffer.resize(static_cast<std::size_t>(n));
      return buffer;
    }
    if (buffer.size() >= (1u << 20)) return make_error(ENAMETOOLONG, context);
    buffer.resize(buffer.size() * 2);
  }
}

std::optional<Error> check_host_path(std::string_view path) {
  if (path.empty() || path.front() != '/') {
    return make_error(EINVAL, "not an absolute path: " + std::string(path));
  }
  if (path.find('\0') != std::string_view::npos) {
    return make_error(EINVAL, "path contains a NUL byte");
  }
  return std::nullopt;
}

Result<std::string> resolve_in_root(const std::string& root, std::string_view path,
                                    bool follow_last) {
  if (auto bad = check_host_path(path)) return *bad;
  std::string base = root;  // "" when the root is "/" itself
  while (!base.empty() && base.back() == '/') base.pop_back();

  std::vector<std::string> done;  // resolved components below the root
  std::vector<std::string> todo;  // components still to walk, next one last
  push_components_reversed(path, todo);
  int follows = 0;
  while (!todo.empty()) {
    std::string name = std::move(todo.back());
    todo.pop_back();
    if (name == ".") continue;
    if (name == "..") {
      if (!done.empty()) done.pop_back();  // clamped: never above the root
      continue;
    }
    const bool last = todo.empty();
    if (last && !follow_last) {
      done.push_back(std::move(name));
      break;
    }
    const std::string real = join(base, done, name);
    struct stat st {};
    if (::lstat(real.c_str(), &st) != 0) return make_error(errno, path);
    if (S_ISLNK(st.st_mode)) {
      if (++follows > kMaxSymlinkFollows) return make_error(ELOOP, path);
      auto target = read_link_target(real, path);
      if (!target.ok()) return target.error();
      if (target->empty()) return make_error(ENOENT, path);  // as Linux does
      if (target->front() == '/') done.clear();              // absolute: restart at the root
      push_components_reversed(*target, todo);
      continue;
    }
    if (!last && !S_ISDIR(st.st_mode)) return make_error(ENOTDIR, path);
    done.push_back(std::move(name));
  }
  return join(base, done);
}

}  // namespace hwaccel
