// `hwsim check DIR`: replay every snapshot in DIR against its NAME.expected/
// goldens (the files the golden test reviews); --update rewrites them.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace hwaccel::cli {

struct CheckArgs {
  std::string dir;
  bool update = false;
  int jobs = 0;          // 0: the machine's hardware threads
  std::string progress;  // auto | always | never (auto: only when stderr is a terminal)
};

CLI::App* add_check_command(CLI::App& app, CheckArgs& args);
int run_check(const CheckArgs& args);

}  // namespace hwaccel::cli
