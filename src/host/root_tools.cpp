#include "src/host/root_tools.h"

#include <sys/stat.h>

#include <filesystem>
#include <system_error>
#include <vector>

#include "src/host/root_path.h"

namespace hwaccel {
namespace {

std::vector<std::string> split_path(std::string_view text) {
  std::vector<std::string> dirs;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto colon = text.find(':', start);
    if (colon == std::string_view::npos) colon = text.size();
    if (colon > start) dirs.emplace_back(text.substr(start, colon - start));
    start = colon + 1;
  }
  return dirs;
}

bool is_file(const std::string& real) {
  struct stat st {};
  return ::stat(real.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The tree's file at `path` (a path as seen inside the tree).
bool tree_has_file(const std::string& root, const std::string& path) {
  auto real = resolve_in_root(root, path, /*follow_last=*/true);
  return real.ok() && is_file(*real);
}

// Whether `dir` (a folder of this machine's PATH) lies inside the tree, on this
// machine; a relative root is taken from the working folder.
bool inside(const std::string& root, const std::string& dir) {
  std::error_code ec;
  std::string r = std::filesystem::absolute(root, ec).lexically_normal().string();
  if (ec) return false;
  while (r.size() > 1 && r.back() == '/') r.pop_back();
  return dir.size() > r.size() && dir.compare(0, r.size(), r) == 0 && dir[r.size()] == '/';
}

}  // namespace

std::optional<std::string> tool_not_in_tree(const std::string& root, std::string_view tool,
                                            std::string_view path_env) {
  const std::string name(tool);
  const std::string why_tail =
      " (--root " + root + " is the machine; --root-tools runs this machine's tools instead)";
  if (name.empty() || name.find('\0') != std::string::npos)
    return name + ": not run: not a program name" + why_tail;
  if (name.front() == '/') {
    if (tree_has_file(root, name)) return std::nullopt;
    return name + ": not run: the tree has no " + name + why_tail;
  }
  if (name.find('/') != std::string::npos)
    return name + ": not run: a relative program path" + why_tail;
  for (const auto& dir : split_path(kTreePathDirs))
    if (tree_has_file(root, dir + "/" + name)) return std::nullopt;
  for (const auto& dir : split_path(path_env)) {
    if (dir.front() != '/') continue;
    if (inside(root, dir) ? is_file(dir + "/" + name) : tree_has_file(root, dir + "/" + name))
      return std::nullopt;
  }
  return name + ": not run: the tree has no " + name + " in its PATH folders" + why_tail;
}

}  // namespace hwaccel
