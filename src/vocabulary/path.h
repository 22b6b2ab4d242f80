// Lexical path normalisation shared by the hosts and the snapshot codec.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

// "/a//b/./c/" -> "/a/b/c"; ".." pops a component and is clamped at "/".
// nullopt for a relative path, an empty one, or one holding a NUL byte.
std::optional<std::string> normalize_absolute(std::string_view path);

// True when normalize_absolute(path) would give `path` back unchanged: absolute,
// no NUL, no empty, "." or ".." component, no trailing '/' (but "/" itself).
// Lets a caller skip the copy for the paths that are already so.
bool is_normal_absolute(std::string_view path);

// True when the path has a ".." component (snapshots refuse those outright).
bool has_dotdot(std::string_view path);

std::vector<std::string> path_components(std::string_view normalized);
std::string parent_dir(std::string_view normalized);  // "/a/b" -> "/a"; "/" -> "/"
std::string join_path(std::string_view dir, std::string_view name);

}  // namespace hwaccel
