// The exit codes with their one-line meanings, for the man pages and for the
// test that docs/cli.md's table lists exactly these.
#pragma once

#include <string>
#include <vector>

namespace hwaccel::cli {

struct ExitCodeDoc {
  int code;
  std::string meaning;
};

const std::vector<ExitCodeDoc>& exit_code_table();

}  // namespace hwaccel::cli
