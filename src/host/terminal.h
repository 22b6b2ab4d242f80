// What the command line needs from the process's own context: whether stderr
// (progress bars are drawn only there) or stdout (reports are coloured only
// there) is a terminal, and the working folder (to make a path the user typed
// absolute for the Host). In src/host/ because asking the OS is an access to
// the machine like any other.
#pragma once

#include <string>

namespace hwaccel {

bool stderr_is_terminal();

// Any file descriptor of this process: is_terminal(1) for stdout.
bool is_terminal(int fd);

// "fixtures/hosts" -> "/work/repo/fixtures/hosts"; an absolute path unchanged.
std::string absolute_path(const std::string& path);

}  // namespace hwaccel
