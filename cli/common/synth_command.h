// `hwsim synth`: a host spec (a file or a named preset) in, a snapshot out.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "sim/spec.h"

namespace hwaccel::cli {

struct SynthArgs {
  std::string spec_path;
  std::string preset;
  std::string output;  // empty: stdout
  bool force = false;  // -o may replace an existing file
  bool list = false;
};

CLI::App* add_synth_command(CLI::App& app, SynthArgs& args);
int run_synth(const SynthArgs& args);

// Reads a spec file (errors printed, located) or a preset; used by synth and fleet.
std::optional<sim::HostSpec> load_spec(const std::string& path, const std::string& preset,
                                       int& exit_code);

}  // namespace hwaccel::cli
