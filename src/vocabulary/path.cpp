#include "src/vocabulary/path.h"

namespace hwaccel {

std::vector<std::string> path_components(std::string_view p) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (i < p.size()) {
    while (i < p.size() && p[i] == '/') ++i;
    std::size_t start = i;
    while (i < p.size() && p[i] != '/') ++i;
    if (i > start) parts.emplace_back(p.substr(start, i - start));
  }
  return parts;
}

std::optional<std::string> normalize_absolute(std::string_view path) {
  if (path.empty() || path.front() != '/') return std::nullopt;
  if (path.find('\0') != std::string_view::npos) return std::nullopt;
  std::vector<std::string> out;
  for (auto& part : path_components(path)) {
    if (part == ".") continue;
    if (part == "..") {
      if (!out.empty()) out.pop_back();
      continue;
    }
    out.push_back(std::move(part));
  }
  std::string joined;
  for (const auto& part : out) joined += "/" + part;
  return joined.empty() ? std::string("/") : joined;
}

bool is_normal_absolute(std::string_view path) {
  if (path.empty() || path.front() != '/') return false;
  if (path.size() == 1) return true;
  if (path.back() == '/') return false;
  std::size_t start = 1;  // of the component after each '/'
  for (std::size_t i = 1; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != '/') {
      if (path[i] == '\0') return false;
      continue;
    }
    std::string_view part = path.substr(start, i - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = i + 1;
  }
  return true;
}

bool has_dotdot(std::string_view path) {
  for (const auto& part : path_components(path))
    if (part == "..") return true;
  return false;
}

std::string parent_dir(std::string_view p) {
  auto slash = p.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return "/";
  return std::string(p.substr(0, slash));
}

std::string join_path(std::string_view dir, std::string_view name) {
  if (dir == "/") return "/" + std::string(name);
  return std::string(dir) + "/" + std::string(name);
}

}  // namespace hwaccel
