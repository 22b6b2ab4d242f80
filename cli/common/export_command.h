// `hwaccel export nfd|slurm|prometheus [-o FILE] [--interval DURATION]`: the
// detection in the format of a fleet tool, to stdout or written atomically to
// FILE; once (--oneshot, the default) or every DURATION until SIGTERM (the
// agent mode GFD has as --sleep-interval).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace hwaccel::cli {

struct ExportArgs {
  std::string kind;  // nfd | slurm | prometheus (the subcommand)
  std::string output;
  std::string only;
  double timeout_s = 5.0;
  std::string root;
  bool root_tools = false;  // --root-tools: under --root, run this machine's tools
  std::string host_path;
  std::string part = "all";    // slurm: all | gres | node
  bool igpu = false;           // slurm: declare an iGPU beside discrete GPUs
  std::string mig = "mixed";   // nfd, prometheus: none | single | mixed
  bool nvidia_labels = false;  // nfd: nvidia.com/ labels as GFD names them
  bool snake_case = false;     // prometheus: model_name, not DCGM's modelName
  std::string interval;        // "" or "0": once
  bool oneshot = false;
  bool quiet = false;
};

// Adds `export` with its three subcommands to `app`; returns the `export` command.
CLI::App* add_export_command(CLI::App& app, ExportArgs& args);
int run_export(const ExportArgs& args);

// "300", "300s", "5m", "1h", "1h30m" -> seconds; nullopt for anything else (or
// under 1 s, or over a week).
std::optional<long> parse_interval(const std::string& text);

}  // namespace hwaccel::cli
