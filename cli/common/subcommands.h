// The subcommand table both tools share: each subcommand is built (its options
// added to CLI11) only when the first argument names it, since building every
// one was a fifth of `hwaccel detect`'s start-up and a tenth of a warm `hwsim
// run`'s own CPU (issue 37, docs/performance.md). No argument, --help, a typo,
// the man page and the completions see them all.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel::cli {

// A subcommand added to the app, and what runs it once parsed.
struct AddedSubcommand {
  CLI::App* command = nullptr;
  std::function<int()> run;
};

// A subcommand's name and what adds it (with its options) to the app.
struct Subcommand {
  std::string_view name;
  std::function<AddedSubcommand(CLI::App&)> add;
};

// Adds the subcommand argv[1] names, else every one of `table`, in its order.
std::vector<AddedSubcommand> add_subcommands(CLI::App& app, const std::vector<Subcommand>& table,
                                             int argc, char** argv);

// The man page and completions (cli_docs.h), then the parse: an exit code when
// the command line is done with (printed, or a usage error), else nothing.
std::optional<int> parse_command_line(CLI::App& app, const std::string& program, int argc,
                                      char** argv);

// The subcommand that was parsed, or null.
const AddedSubcommand* parsed_subcommand(const std::vector<AddedSubcommand>& added);

}  // namespace hwaccel::cli
