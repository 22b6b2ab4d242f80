// Runs a shell command line for end-to-end tests and captures what it printed.
#pragma once

#include <string>

namespace hwaccel::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  double seconds = 0;
};

CommandResult run_command(const std::string& command_line);
std::string bin(const std::string& name);  // path of a built binary
std::string make_temp_dir();

}  // namespace hwaccel::testing
