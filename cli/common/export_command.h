// `hwaccel export nfd|slurm|prometheus [-o FILE]`: the detection in the format
// of a fleet tool, to stdout or written atomically to FILE.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace hwaccel::cli {

struct ExportArgs {
  std::string kind;  // nfd | slurm | prometheus (the subcommand)
  std::string output;
  std::string only;
  double timeout_s = 5.0;
  std::string root;
  std::string host_path;
  std::string part = "all";  // slurm: all | gres | node
  bool quiet = false;
};

// Adds `export` with its three subcommands to `app`; returns the `export` command.
CLI::App* add_export_command(CLI::App& app, ExportArgs& args);
int run_export(const ExportArgs& args);

}  // namespace hwaccel::cli
