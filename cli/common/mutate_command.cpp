#include "cli/common/mutate_command.h"

#include <iostream>

#include "cli/common/exit_codes.h"
#include "cli/common/output_file.h"
#include "sim/mutate.h"
#include "src/host/snapshot_host.h"
#include "src/snapshot/snapshot_codec.h"

namespace hwaccel::cli {

CLI::App* add_mutate_command(CLI::App& app, MutateArgs& args) {
  auto* cmd = app.add_subcommand(
      "mutate",
      "Inject faults into a snapshot FILE (tool hangs, crashes, errors, garbage, "
      "unreadable or vanished files, unloaded drivers, less free memory)");
  cmd->add_option("file", args.input, "The snapshot to start from")->required();
  cmd->add_option("--fault", args.faults,
                  "KIND:TARGET[=ARG], repeatable, applied in order (docs/hwsim-spec.md): "
                  "hang, signal, exit, missing, denied, empty, truncate, garbage, flood, "
                  "gone, loop, unload, free")
      ->required();
  cmd->add_option("-o,--output", args.output, "Where to write the mutated snapshot")->required();
  cmd->add_flag("--force", args.force, "Replace the output file if it exists");
  cmd->add_flag("-v,--verbose", args.verbose, "Say what each fault changed");
  return cmd;
}

int run_mutate(const MutateArgs& args) {
  std::vector<sim::Fault> faults;
  for (const auto& text : args.faults) {
    std::string why;
    auto fault = sim::parse_fault(text, why);
    if (!fault) {
      std::cerr << "error: --fault " << text << ": " << why << "\n";
      return kExitUsage;
    }
    faults.push_back(std::move(*fault));
  }
  auto loaded = load_snapshot_file(args.input);
  if (loaded.error) {
    std::cerr << "error: " << loaded.error->to_string() << "\n";
    return kExitBadInput;
  }
  Snapshot snapshot = std::move(*loaded.snapshot);
  auto result = sim::apply_faults(snapshot, faults);
  for (const auto& e : result.errors) std::cerr << "error: " << args.input << ": " << e << "\n";
  if (!result.ok()) return kExitUsage;
  if (args.verbose)
    for (const auto& c : result.changes) std::cerr << c << "\n";
  if (auto why = write_file_atomically(args.output, write_snapshot(snapshot),
                                       args.force ? ExistingFile::replace : ExistingFile::keep);
      !why.empty()) {
    std::cerr << "error: " << why << "\n";
    return kExitCannotWrite;
  }
  return kExitOk;
}

}  // namespace hwaccel::cli
