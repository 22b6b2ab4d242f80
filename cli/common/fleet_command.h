// `hwsim fleet`: detection over a folder of snapshots, or over N hosts drawn
// from a spec with a seed, folded into one aggregate table; `--shard K/N`
// draws one slice of such a fleet into a partial result, and `hwsim fleet
// merge` joins the parts into the report the single run prints.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/common/output_format.h"

namespace hwaccel::cli {

struct FleetArgs {
  std::string source;  // a folder of snapshots or a spec file
  std::string preset;  // instead of a spec file
  std::size_t count = 1000;
  std::uint64_t seed = 1;
  int jobs = 0;
  double fault_rate = 0.05;
  double busy_rate = 0.30;
  std::string model, quant;  // planning: not in this build yet
  OutputArgs out;            // --json / --format (the report)
  std::string shard;         // "K/N": write shard K's partial result to `output`
  std::string output;        // the partial result's file ("-": stdout)
  bool merge = false;        // `hwsim fleet merge PART...`
  std::vector<std::string> parts;
};

CLI::App* add_fleet_command(CLI::App& app, FleetArgs& args);
int run_fleet(const FleetArgs& args);
// `hwsim fleet merge` (cli/common/fleet_merge_command.cpp).
int run_fleet_merge(const FleetArgs& args);

}  // namespace hwaccel::cli
