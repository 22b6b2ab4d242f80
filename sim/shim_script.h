// The tool shims of a materialized host: one POSIX sh script per tool name that
// answers each recorded argv exactly (stdout and stderr bytes from data files,
// the exit code; a recorded timeout sleeps until killed; a recorded signal kills
// the shim with that signal) and fails loudly, naming the argv, on anything else.
// With a sleep program (`hwsim run --latency`), each answer first waits the run's
// recorded wall time (`ms`), so a caller sees the recorded host's tool latencies.
#pragma once

#include <cstdint>
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
// `sleep_program` (absolute, one that takes fractions of a second, as coreutils' and
// busybox's do): "" answers at once; otherwise a run recorded with ms > 0 first runs
// `SLEEP SECONDS` (23 ms -> 0.023). A recorded hang hangs as it does without.
std::string shim_script(const std::string& name, const std::vector<ShimRun>& runs,
                        const std::string& data_dir, const std::string& sleep_program = "");

// 23 -> "0.023", 1500 -> "1.500": milliseconds as a `sleep` argument.
std::string sleep_seconds(std::int64_t ms);

}  // namespace hwaccel::sim
