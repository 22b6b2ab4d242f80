// Spawning tools for LiveHost::run: a child in its own process group, stdin from
// /dev/null, stdout and stderr read concurrently through pipes while it runs, output
// capped, the whole group killed at the deadline. Thread-safe: probes run tools from
// several threads at once.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"

namespace hwaccel {

struct ProcessLimits {
  std::chrono::milliseconds timeout{5000};
  std::size_t output_cap = 16u << 20;  // bytes kept per stream
};

// The search list used when PATH is unset.
inline constexpr std::string_view kDefaultSearchPath =
    "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// Where `name` (no '/') would be run from, searching the ':'-separated `search_path`
// as execvp does: the first executable regular file wins; failing that, the first
// regular file that exists but is not executable (so that running it reports
// permission denied, not "not found"). Empty entries, which would mean the current
// directory, are skipped.
std::optional<std::string> find_executable(std::string_view name, std::string_view search_path);

// True for variables that make the dynamic loader inject code into a tool:
// LD_* (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT...) and DYLD_* on macOS.
bool is_loader_variable(std::string_view name);

// `env` ("NAME=value" entries, NULL-terminated) without loader variables and with
// LC_ALL=C, so that tools print unlocalised, parseable output.
std::vector<std::string> child_environment(const char* const* env);

// Runs argv (argv[0] searched on the process's PATH unless it contains '/').
// Outcomes: exited (exit code), signal, timeout, not_found (no such file: not on
// PATH, or exec said ENOENT/ENOTDIR and the file is not there), permission_denied
// (exec said EACCES/EPERM). A file that is there and that exec refuses for another
// reason (its dynamic loader or "#!" interpreter is missing, which exec also calls
// ENOENT; a format this machine does not run) is `exited` with code 126, the
// shell's "cannot execute"; for it and for permission_denied, `err` says "found at
// PATH and cannot execute: WHY" (exec_diagnosis.h). Other failures to start (out
// of fds or processes) are `exited` 126 with the reason in `err`. Never throws;
// leaves no fds or zombies behind.
ToolRun run_process(const std::vector<std::string>& argv, const ProcessLimits& limits);

// The same run, started now (the process is spawned on the calling thread) and
// waited for by finish(), on any thread; the deadline counts from now.
std::unique_ptr<StartedRun> start_process(const std::vector<std::string>& argv,
                                          const ProcessLimits& limits);

// What run_process answers for a bare name on no folder of PATH.
ToolRun not_on_path(const std::string& name);

}  // namespace hwaccel
