// Man pages and shell completion scripts generated from the CLI11 definitions
// themselves (`hwaccel --generate-man`, `hwaccel --generate-completion bash`),
// so a flag added to a command is documented and completed without a second
// list to keep in sync. The build runs these and installs the results.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace hwaccel::cli {

// roff for man(1), section 1. Deterministic: no date.
std::string render_man_page(const CLI::App& app, const std::string& program);
// A bash completion script (complete -F) for subcommands and their flags.
std::string render_bash_completion(const CLI::App& app, const std::string& program);
// A zsh completion function (#compdef) with each flag's description.
std::string render_zsh_completion(const CLI::App& app, const std::string& program);

// Handles the hidden generator flags before normal parsing: returns true (and
// sets `exit_code`) when argv asked for a man page or a completion script.
bool handle_generators(const CLI::App& app, const std::string& program, int argc, char** argv,
                       int& exit_code);

}  // namespace hwaccel::cli
