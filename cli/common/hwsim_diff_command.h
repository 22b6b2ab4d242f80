// `hwsim diff A B`: two snapshots or two JSON reports (docs/cli.md).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>

namespace hwaccel::cli {

struct DiffArgs;

struct DiffCommand {
  CLI::App* command = nullptr;
  std::shared_ptr<DiffArgs> args;
  int run() const;
};
DiffCommand add_diff_command(CLI::App& app);

// Exit status of `hwsim diff` when the two inputs differ (as diff(1)).
inline constexpr int kExitDifferent = 1;

}  // namespace hwaccel::cli
