// hwaccel: what accelerators this machine has, and which are usable.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "cli/common/detect_command.h"
#include "cli/common/exit_codes.h"

int main(int argc, char** argv) {
  using namespace hwaccel::cli;
  CLI::App app{"hwaccel: find every AI accelerator on this machine and say whether it is usable"};
  app.set_version_flag("--version", std::string("hwaccel ") + HWACCEL_VERSION);
  app.require_subcommand(1);

  DetectArgs detect_args;
  auto* detect = app.add_subcommand("detect", "Every backend a line (ready, or why not), then every device");
  add_detect_flags(*detect, detect_args);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  try {
    if (detect->parsed()) return run_detect(detect_args);
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return kExitInternal;
  }
  return kExitUsage;
}
