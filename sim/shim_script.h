// The tool shims of a materialized host: one POSIX sh script per tool name that
// answers each recorded argv exactly (stdout and stderr bytes from data files,
// the exit code; a recorded timeout waits, bounded, then ends killed; a recorded signal kills
// the shim with that signal) and fails loudly, naming the argv, on anything else.
// With a sleep program (`hwsim run --latency`), each answer first waits the run's
// recorded wall time (`ms`), so a caller sees the recorded host's tool latencies.
//
// Snapshots are hostile: the script is fixed text, and every byte that comes from
// outside it (argv words, the tool's name, the data folder, the sleep program)
// enters through shim_quote() only, never a comment, never unquoted.
// tests/fuzz/shim_script_fuzz.cpp checks that no input changes the script's shape.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

// Exit status of a shim asked for an argv the snapshot does not hold (as a
// shell's "command not found"); it also prints `hwsim shim: no recorded run: ARGV`.
inline constexpr int kShimMissExit = 127;

// This machine's own programs the shims run (`cat` for the recorded bytes, `sleep`
// for a recorded timeout), by absolute path, found on this machine's PATH before
// any shim: a snapshot's tool named `cat` or `sleep` must not answer for them (a
// shim for `sleep` that ran `sleep` ran itself, forever). The defaults, plain
// names, are for tests of the script's text only.
struct ShimHelpers {
  std::string cat = "cat";
  std::string sleep = "sleep";
};

// A recorded timeout: the shim waits the recorded wall time, at least this long
// (a caller that waits as long as the recorder did gives up first) and at most
// kTimeoutWaitMaxMs, in one `sleep` (never a loop), then kills itself with SIGKILL,
// as the recorder's timeout did.
inline constexpr std::int64_t kTimeoutWaitMinMs = 60'000;
inline constexpr std::int64_t kTimeoutWaitMaxMs = 600'000;

struct ShimRun {
  const ToolEntry* tool = nullptr;
  std::string data_id;  // files DATA/<id>.out and DATA/<id>.err hold its bytes (digits only)
};

// The script for `name`; `data_dir` is relative to the script's own folder, or absolute.
// `sleep_program` (absolute, one that takes fractions of a second, as coreutils' and
// busybox's do): "" answers at once; otherwise a run recorded with ms > 0 first runs
// `SLEEP SECONDS` (23 ms -> 0.023). A recorded hang hangs as it does without.
// A run whose argv holds a NUL byte gets no answer (no program can pass one:
// see shim_answerable); the planner reports it.
// `fall_through` (system utilities, see is_system_utility): an argv the snapshot did
// not record runs the next program of that name on PATH instead of failing, so
// that a shim for `test` does not shadow this machine's /usr/bin/test.
std::string shim_script(const std::string& name, const std::vector<ShimRun>& runs,
                        const std::string& data_dir, const std::string& sleep_program = "",
                        bool fall_through = false, bool emulate = false,
                        const ShimHelpers& helpers = {});

// `emulate` (a tool with an emulator, sim/emulate/tool_emulator.h): an argv the
// snapshot did not record is answered by the tree's emulator program, DATA/../emu
// (`emu emulate TREE NAME -- ARGS...`, where TREE is DATA/../..), when it is there.
inline constexpr const char* kEmulatorFile = "/.hwsim/emu";
// One line per synthesised answer, appended by the emulator.
inline constexpr const char* kSynthesisedLog = "/.hwsim/synthesised";

// Programs that answer from files (which `hwsim run` presents) or from nothing of
// the host at all (test, cat, ls, lspci, lscpu, numactl ...), as opposed to a
// vendor tool, whose real copy here would describe this machine's devices.
bool is_system_utility(std::string_view name);

// Whether a recorded argv can reach a shim at all: a program's argument words end
// at a NUL byte, so a word holding one can never be passed.
bool shim_answerable(const std::vector<std::string>& argv);

// The one quoting function of the shims: `word` as one POSIX sh word that means
// exactly its bytes: single quotes, a ' as '\'', and a newline as '"$nl"' (the
// script sets nl, so that no line of it starts with text from outside).
std::string shim_quote(std::string_view word);

// 23 -> "0.023", 1500 -> "1.500": milliseconds as a `sleep` argument.
std::string sleep_seconds(std::int64_t ms);

}  // namespace hwaccel::sim
