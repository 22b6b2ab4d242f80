// `hwsim import --root DIR [--tool 'ARGV=FILE']... -o host.yaml` (docs/cli.md).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>

namespace hwaccel::cli {

struct ImportArgs;

// Adds the subcommand to `app`; run() runs it once `command` was parsed.
struct ImportCommand {
  CLI::App* command = nullptr;
  std::shared_ptr<ImportArgs> args;
  int run() const;
};
ImportCommand add_import_command(CLI::App& app);

}  // namespace hwaccel::cli
