// hwsim: the simulator. `replay` runs the detector on a recorded or hand-written
// host snapshot and prints what `hwaccel detect` printed there.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>

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
#include "cli/common/synth_command.h"
#include "src/vocabulary/sanitizer.h"

int main(int argc, char** argv) {
  using namespace hwaccel::cli;
  CLI::App app{"hwsim: replay and simulate hosts for hwaccel"};
  app.set_version_flag("--version", std::string("hwsim ") + HWACCEL_VERSION);
  app.require_subcommand(1);

  DetectArgs args;
  auto* replay = app.add_subcommand("replay", "Run hwaccel detect on a snapshot FILE");
  replay->add_option("file", args.host_path, "The snapshot (hwaccel-snapshot/1 YAML)")->required();
  add_output_flags(*replay, args.out);
  replay->add_flag("--summary", args.summary,
                   "Print a summary: devices per family, the best device, memory, warnings");
  replay->add_flag("-v,--verbose", args.verbose,
                   "Also print topology (links, NUMA/CPU affinity) and MIG parents");
  replay->add_flag("--strict", args.strict, "A tool run the snapshot lacks is an error (exit 3)");
  replay->add_option("--only", args.only, "Probe only these backends (comma-separated)");

  MutateArgs mutate_args;
  auto* mutate = add_mutate_command(app, mutate_args);
  SynthArgs synth_args;
  auto* synth = add_synth_command(app, synth_args);
  CheckArgs check_args;
  auto* check = add_check_command(app, check_args);
  FleetArgs fleet_args;
  auto* fleet = add_fleet_command(app, fleet_args);
  auto import_command = add_import_command(app);
  auto diff_command = add_diff_command(app);
  auto materialize_command = add_materialize_command(app);
  auto run_command = add_run_command(app);

  if (int code = 0; handle_generators(app, "hwsim", argc, argv, code)) return code;
  // What a simulated host's tool shims run: not a user command, so not in --help.
  if (argc >= 2 && std::string_view(argv[1]) == "emulate")
    return run_guarded([&] { return run_emulate({argv + 2, argv + argc}); });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  const int code = run_guarded([&]() -> int {
    if (replay->parsed()) return run_detect(args);
    if (mutate->parsed()) return run_mutate(mutate_args);
    if (synth->parsed()) return run_synth(synth_args);
    if (check->parsed()) return run_check(check_args);
    if (fleet->parsed()) return run_fleet(fleet_args);
    if (import_command.command->parsed()) return import_command.run();
    if (diff_command.command->parsed()) return diff_command.run();
    if (materialize_command.command->parsed()) return materialize_command.run();
    if (run_command.command->parsed()) return run_command.run();
    return kExitUsage;
  });
  // `hwsim run` has cleaned up after its command (its scratch folders removed): what
  // is left is handing memory back, which the kernel does at once at exit. Tearing
  // down the parsed command line (every subcommand's options) and the static objects
  // one by one first was about 1 % of a warm run's CPU (issue 37, perf record of 150
  // warm `hwsim run dgx-h100 -- true`: CLI::App::~App 1.1 %). Under AddressSanitizer
  // the process ends as usual, so that the leak check sees everything freed.
  if (!hwaccel::kAddressSanitizer && run_command.command->parsed()) {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}
