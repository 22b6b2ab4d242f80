// `hwsim materialize host.yaml DIR` and `hwsim run host.yaml -- CMD [ARGS...]`
// (docs/cli.md, docs/hwsim.md).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>

namespace hwaccel::cli {

struct RunArgs;

struct MaterializeCommand {
  CLI::App* command = nullptr;
  std::shared_ptr<RunArgs> args;
  int run() const;
};
MaterializeCommand add_materialize_command(CLI::App& app);

struct RunCommand {
  CLI::App* command = nullptr;
  std::shared_ptr<RunArgs> args;
  int run() const;
};
RunCommand add_run_command(CLI::App& app);

}  // namespace hwaccel::cli
