// `hwaccel io --dataset 100G`: how long reading a data set of that size takes
// from this host's block devices, and what that assumes.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace hwaccel::cli {

struct IoArgs {
  std::string dataset;  // "100G", "1.5TiB"
  bool json = false;
  std::string root;       // --root DIR
  bool root_tools = false;  // --root-tools: under --root, run this machine's tools
  std::string host_path;  // --host FILE (a snapshot)
  double timeout_s = 5.0;
};

void add_io_flags(CLI::App& command, IoArgs& args);
int run_io(const IoArgs& args);

}  // namespace hwaccel::cli
