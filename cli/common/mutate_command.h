// `hwsim mutate`: a snapshot in, the same host with faults injected out.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace hwaccel::cli {

struct MutateArgs {
  std::string input;
  std::vector<std::string> faults;  // KIND:TARGET[=ARG], in order
  std::string output;
  bool force = false;  // -o may replace an existing file
  bool verbose = false;
};

CLI::App* add_mutate_command(CLI::App& app, MutateArgs& args);
int run_mutate(const MutateArgs& args);

}  // namespace hwaccel::cli
