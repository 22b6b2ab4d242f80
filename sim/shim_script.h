// The tool shims of a materialized host: one POSIX sh script per tool name that
// answers each recorded argv exactly (stdout and stderr bytes from data files,
// the exit code; a recorded timeout sleeps until killed; a recorded signal kills
// the shim with that signal) and fails loudly, naming the argv, on anything else.
#pragma once

#include <string>
#include <vector>

#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

// Exit status of a shim asked for an argv the snapshot does not hold (as a
// shell's "command not found"); it also prints `hwsim shim: no recorded run: ARGV`.
inline constexpr int kShimMissExit = 127;

struct ShimRun {
  const ToolEntry* tool = nullptr;
  std::string data_id;  // files DATA/<id>.out and DATA/<id>.err hold its bytes
};

// The script for `name`; `data_dir` is relative to the script's own folder, or absolute.
std::string shim_script(const std::string& name, const std::vector<ShimRun>& runs,
                        const std::string& data_dir);

}  // namespace hwaccel::sim
