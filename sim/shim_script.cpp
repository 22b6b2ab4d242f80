#include "sim/shim_script.h"

#include <algorithm>
#include <set>

namespace hwaccel::sim {
namespace {

std::string answer(const std::string& name, const ShimRun& r, const std::string& sleep_program,
                   const ShimHelpers& helpers) {
  const ToolRun& run = r.tool->run;
  // The data id is ours (digits); anything else would be a bug, not an input.
  const std::string out = shim_quote(r.data_id + ".out"), err = shim_quote(r.data_id + ".err");
  std::string body;
  // The recorded wall time first: the real tool printed its output at the end too
  // (a recorded hang needs no wait of its own).
  if (!sleep_program.empty() && run.ms > 0 && run.outcome != ToolOutcome::timeout)
    body += "  " + shim_quote(sleep_program) + " " + sleep_seconds(run.ms) + "\n";
  const std::string cat = shim_quote(helpers.cat);
  if (!run.out.empty()) body += "  " + cat + " \"$data\"/" + out + "\n";
  if (!run.err.empty()) body += "  " + cat + " \"$data\"/" + err + " >&2\n";
  switch (run.outcome) {
    case ToolOutcome::exited:
      body += "  exit " + std::to_string(run.exit_code) + "\n";
      break;
    case ToolOutcome::timeout: {
      // Recorded as hung: a bounded wait (kTimeoutWaitMinMs), with the sleep in the
      // background so that TERM/HUP/INT to the shim end it too, and holding none of
      // the caller's pipes; then the end the recorder gave it.
      const std::int64_t wait = std::min(std::max(run.ms, kTimeoutWaitMinMs), kTimeoutWaitMaxMs);
      body += "  " + shim_quote(helpers.sleep) + " " + sleep_seconds(wait) +
              " </dev/null >/dev/null 2>&1 &\n";
      body += "  trap 'kill $! 2>/dev/null; exit 143' TERM HUP INT\n";
      body += "  wait $!\n  kill -9 $$\n  exit 137\n";
      break;
    }
    case ToolOutcome::signal:
      body += "  kill -" + std::to_string(run.signal) + " $$\n  exit " +
              std::to_string(128 + run.signal) + "\n";
      break;
    case ToolOutcome::not_found:
      // What a shell says for a missing command (dash: "sh: 1: NAME: not found"; the
      // caller's name and line are the shell's own, not known here) and its status.
      body += "  printf '%s: not found\\n' " + shim_quote(name) + " >&2\n  exit 127\n";
      break;
    case ToolOutcome::permission_denied:
      body += "  echo \"hwsim shim: $0: recorded as permission denied\" >&2\n  exit 126\n";
      break;
  }
  return body;
}

}  // namespace

std::string shim_quote(std::string_view word) {
  std::string out = "'";
  for (char c : word) {
    if (c == '\'')
      out += "'\\''";
    else if (c == '\n')
      out += "'\"$nl\"'";
    else
      out += c;
  }
  return out + "'";
}

bool shim_answerable(const std::vector<std::string>& argv) {
  for (const auto& word : argv)
    if (word.find('\0') != std::string::npos) return false;
  return !argv.empty();
}

std::string sleep_seconds(std::int64_t ms) {
  std::string frac = std::to_string(ms % 1000);
  return std::to_string(ms / 1000) + "." + std::string(3 - frac.size(), '0') + frac;
}

bool is_system_utility(std::string_view name) {
  // clang-format off
  static const std::set<std::string_view> names = {
      "test", "[", "true", "false", "cat", "ls", "stat", "readlink", "realpath", "head", "tail",
      "grep", "sed", "awk", "cut", "sort", "wc", "tr", "id", "env", "printf", "echo", "sleep",
      "find", "basename", "dirname", "uname", "nproc", "getconf", "lscpu", "lspci", "lsblk",
      "lsmem", "lsmod", "free", "numactl", "lstopo", "lstopo-no-graphics", "hwloc-ls", "udevadm"};
  // clang-format on
  return names.count(name) > 0;
}

std::string shim_script(const std::string& name, const std::vector<ShimRun>& runs,
                        const std::string& data_dir, const std::string& sleep_program,
                        bool fall_through, bool emulate, const ShimHelpers& helpers) {
  std::size_t answerable = 0;
  for (const ShimRun& r : runs) answerable += shim_answerable(r.tool->argv) ? 1 : 0;
  // No snapshot text in comments: a comment ends at a newline, and names hold any byte.
  std::string s = "#!/bin/sh\n";
  s += "# hwsim shim: answers the " + std::to_string(answerable) +
       " run(s) of this tool recorded in the snapshot, byte for byte, and nothing else.\n";
  s += "nl='\n'\n";
  // A relative data folder is found from the script's own place (the tree can move);
  // an absolute one is used as it is (a shim bound at a tool's absolute path).
  if (!data_dir.empty() && data_dir[0] == '/')
    s += "data=" + shim_quote(data_dir) + "\n";
  else
    // The shell's own expansion, not `dirname`: one process less per answer (it
    // counts under `--latency`, where the shim's cost adds to the recorded time).
    s += "case $0 in */*) here=${0%/*} ;; *) here=. ;; esac\ndata=\"$here\"/" +
         shim_quote(data_dir) + "\n";
  for (const ShimRun& r : runs) {
    const auto& argv = r.tool->argv;
    if (!shim_answerable(argv)) continue;
    s += "if [ $# -eq " + std::to_string(argv.size() - 1) + " ]";
    for (std::size_t i = 1; i < argv.size(); ++i)
      s += " && [ \"$" + (i < 10 ? std::to_string(i) : "{" + std::to_string(i) + "}") +
           "\" = " + shim_quote(argv[i]) + " ]";
    s += "; then\n" + answer(name, r, sleep_program, helpers) + "fi\n";
  }
  if (fall_through) {
    // Anything else is the real utility's: the next one of that name on PATH
    // (never this shim again, however PATH names its folder).
    s += "p=$PATH\n";
    s += "while [ -n \"$p\" ]; do\n  d=${p%%:*}\n  case $p in *:*) p=${p#*:} ;; *) p= ;; esac\n";
    // Only absolute folders: an empty or relative entry would run what the current
    // folder holds.
    s += "  case $d in /*) ;; *) continue ;; esac\n";
    s += "  f=\"$d\"/" + shim_quote(name) + "\n";
    s += "  if [ -f \"$f\" ] && [ -x \"$f\" ] && ! [ \"$f\" -ef \"$0\" ]; then exec \"$f\" \"$@\"; "
         "fi\n";
    s += "done\n";
  }
  if (emulate) {
    // Anything else is answered from the host's device model (the emulator reads
    // the tree's snapshot copy; the argv reaches it as words, never as text).
    s += "if [ -x \"$data\"/../emu ]; then exec \"$data\"/../emu emulate \"$data\"/../.. " +
         shim_quote(name) + " -- \"$@\"; fi\n";
  }
  // Anything else: say which argv was asked for, quoted so that it can be pasted.
  s += "printf 'hwsim shim: no recorded run: %s' " + shim_quote(name) + " >&2\n";
  s += "for a in \"$@\"; do printf \" '%s'\" \"$a\" >&2; done\n";
  s += "echo >&2\n";
  s += "exit " + std::to_string(kShimMissExit) + "\n";
  return s;
}

}  // namespace hwaccel::sim
