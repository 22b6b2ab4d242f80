// Writing a file the user asked for: to a temporary beside it, then renamed, so
// a failed write never leaves a half file or destroys what was there.
#pragma once

#include <string>

namespace hwaccel::cli {

// Returns an empty string on success, else the reason.
std::string write_file_atomically(const std::string& path, const std::string& bytes);

// Creates `path` and its missing parents (mkdir -p). Empty on success, else the reason.
std::string make_directories(const std::string& path);

}  // namespace hwaccel::cli
