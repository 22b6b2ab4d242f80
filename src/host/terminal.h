// What the command line needs from the process's own context: whether stderr
// is a terminal (progress bars are drawn only there) and the working folder
// (to make a path the user typed absolute for the Host). In src/host/ because
// asking the OS is an access to the machine like any other.
#pragma once

#include <string>

namespace hwaccel {

bool stderr_is_terminal();

// "fixtures/hosts" -> "/work/repo/fixtures/hosts"; an absolute path unchanged.
std::string absolute_path(const std::string& path);

}  // namespace hwaccel
