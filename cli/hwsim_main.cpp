// hwsim: the simulator. `replay` runs the detector on a recorded or hand-written
// host snapshot and prints what `hwaccel detect` printed there.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <memory>
#include <string_view>
#include <vector>

#include "cli/common/check_command.h"
#include "cli/common/cli_docs.h"
#include "cli/common/detect_command.h"
#include "cli/common/emulate_command.h"
#include "cli/common/exit_codes.h"
#include "cli/common/fleet_command.h"
#include "cli/common/guarded.h"
#include "cli/common/hwsim_diff_command.h"
#include "cli/common/hwsim_import_command.h"
#include "cli/common/hwsim_run_command.h"
#include "cli/common/mutate_command.h"
#include "cli/common/subcommands.h"
#include "cli/common/synth_command.h"
#include "src/vocabulary/sanitizer.h"

namespace {

using namespace hwaccel::cli;

using Added = AddedSubcommand;

Added add_replay(CLI::App& app) {
  auto args = std::make_shared<DetectArgs>();
  auto* replay = app.add_subcommand("replay", "Run hwaccel detect on a snapshot FILE");
  replay->add_option("file", args->host_path, "The snapshot (hwaccel-snapshot/1 YAML)")->required();
  add_output_flags(*replay, args->out);
  replay->add_flag("--summary", args->summary,
                   "Print a summary: devices per family, the best device, memory, warnings");
  replay->add_flag("-v,--verbose", args->verbose,
                   "Also print topology (links, NUMA/CPU affinity) and MIG parents");
  replay->add_flag("--strict", args->strict, "A tool run the snapshot lacks is an error (exit 3)");
  replay->add_option("--only", args->only, "Probe only these backends (comma-separated)");
  return {replay, [args] { return run_detect(*args); }};
}

// A subcommand whose options go to an Args made here.
template <typename Args, typename Add, typename Run>
Added with_args(CLI::App& app, Add add, Run run) {
  auto args = std::make_shared<Args>();
  CLI::App* command = add(app, *args);
  return {command, [args, run] { return run(*args); }};
}

// One whose adder keeps its own arguments (a struct with `command` and `run()`).
template <typename Added_, typename Add>
Added self_kept(CLI::App& app, Add add) {
  auto added = std::make_shared<Added_>(add(app));
  return {added->command, [added] { return added->run(); }};
}

// In the order `hwsim --help` lists them.
std::vector<Subcommand> commands() {
  return {
      {"replay", add_replay},
      {"mutate",
       [](CLI::App& a) { return with_args<MutateArgs>(a, add_mutate_command, run_mutate); }},
      {"synth", [](CLI::App& a) { return with_args<SynthArgs>(a, add_synth_command, run_synth); }},
      {"check", [](CLI::App& a) { return with_args<CheckArgs>(a, add_check_command, run_check); }},
      {"fleet", [](CLI::App& a) { return with_args<FleetArgs>(a, add_fleet_command, run_fleet); }},
      {"import", [](CLI::App& a) { return self_kept<ImportCommand>(a, add_import_command); }},
      {"diff", [](CLI::App& a) { return self_kept<DiffCommand>(a, add_diff_command); }},
      {"materialize",
       [](CLI::App& a) { return self_kept<MaterializeCommand>(a, add_materialize_command); }},
      {"run", [](CLI::App& a) { return self_kept<RunCommand>(a, add_run_command); }},
  };
}

}  // namespace

int main(int argc, char** argv) {
  // What a simulated host's tool shims run, once per tool call inside a run: not
  // a user command, so not in --help, and answered before any option is built.
  if (argc >= 2 && std::string_view(argv[1]) == "emulate")
    return run_guarded([&] { return run_emulate({argv + 2, argv + argc}); });

  CLI::App app{"hwsim: replay and simulate hosts for hwaccel"};
  app.set_version_flag("--version", std::string("hwsim ") + HWACCEL_VERSION);
  app.require_subcommand(1);

  // Only the subcommand asked for is built (subcommands.h).
  const auto added = add_subcommands(app, commands(), argc, argv);
  if (auto done = parse_command_line(app, "hwsim", argc, argv)) return *done;
  const AddedSubcommand* parsed = parsed_subcommand(added);
  const int code = run_guarded([&]() -> int { return parsed ? parsed->run() : kExitUsage; });
  // `hwsim run` has cleaned up after its command (its scratch folders removed): what
  // is left is handing memory back, which the kernel does at once at exit. Tearing
  // down the parsed command line and the static objects one by one first was about
  // 1 % of a warm run's CPU (issue 37, perf record of 150 warm `hwsim run dgx-h100
  // -- true`: CLI::App::~App 1.1 %). Under AddressSanitizer the process ends as
  // usual, so that the leak check sees everything freed.
  if (!hwaccel::kAddressSanitizer && parsed != nullptr && parsed->command->get_name() == "run") {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}
