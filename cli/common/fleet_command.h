// `hwsim fleet`: detection over a folder of snapshots, or over N hosts drawn
// from a spec with a seed, folded into one aggregate table.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

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
};

CLI::App* add_fleet_command(CLI::App& app, FleetArgs& args);
int run_fleet(const FleetArgs& args);

}  // namespace hwaccel::cli
