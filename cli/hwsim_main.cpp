// hwsim: the simulator. `replay` runs the detector on a recorded or hand-written
// host snapshot and prints what `hwaccel detect` printed there.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "cli/common/detect_command.h"
#include "cli/common/exit_codes.h"

int main(int argc, char** argv) {
  using namespace hwaccel::cli;
  CLI::App app{"hwsim: replay and simulate hosts for hwaccel"};
  app.set_version_flag("--version", std::string("hwsim ") + HWACCEL_VERSION);
  app.require_subcommand(1);

  DetectArgs args;
  auto* replay = app.add_subcommand("replay", "Run hwaccel detect on a snapshot FILE");
  replay->add_option("file", args.host_path, "The snapshot (hwaccel-snapshot/1 YAML)")->required();
  replay->add_flag("--json", args.json, "Print the hwaccel-detect/1 JSON document");
  replay->add_flag("-v,--verbose", args.verbose,
                   "Also print topology (links, NUMA/CPU affinity) and MIG parents");
  replay->add_flag("--strict", args.strict, "A tool run the snapshot lacks is an error (exit 3)");
  replay->add_option("--only", args.only, "Probe only these backends (comma-separated)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  try {
    if (replay->parsed()) return run_detect(args);
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return kExitInternal;
  }
  return kExitUsage;
}
