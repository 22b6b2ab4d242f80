// The Host's vocabulary: what the door (src/host/) answers and the snapshot
// (src/snapshot/) records, so both speak it without including each other.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hwaccel {

enum class FileKind { regular, directory, symlink, char_device, block_device, fifo, socket };

std::string_view to_string(FileKind kind);

// How a tool run ended. `exited` carries an exit code; the others carry none.
enum class ToolOutcome { exited, not_found, timeout, signal, permission_denied };

std::string_view to_string(ToolOutcome outcome);

struct ToolRun {
  ToolOutcome outcome = ToolOutcome::exited;
  int exit_code = 0;  // meaningful when outcome == exited
  int signal = 0;     // meaningful when outcome == signal
  std::string out;
  std::string err;
  std::int64_t ms = 0;     // wall time of the run
  bool truncated = false;  // out or err hit the output cap
  bool ok() const { return outcome == ToolOutcome::exited && exit_code == 0; }
};

// What is not a file: recorded in a snapshot's `facts`.
struct Facts {
  std::string os;      // linux | darwin
  std::string arch;    // x86_64 | aarch64 | ...
  std::string kernel;  // uname -r
  std::int64_t page_size = 0;
  std::int64_t cpus = 0;  // online logical CPUs
  std::string hostname;
};

}  // namespace hwaccel
