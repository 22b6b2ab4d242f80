#include "src/host/terminal.h"

#include <unistd.h>

#include <climits>

namespace hwaccel {

bool stderr_is_terminal() {
  return is_terminal(STDERR_FILENO);
}

bool is_terminal(int fd) {
  return ::isatty(fd) == 1;
}

std::string absolute_path(const std::string& path) {
  if (!path.empty() && path.front() == '/') return path;
  char cwd[PATH_MAX];
  if (::getcwd(cwd, sizeof cwd) == nullptr) return path;
  return std::string(cwd) + "/" + path;
}

}  // namespace hwaccel
