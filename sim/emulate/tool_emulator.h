// Vendor tools that answer like the real ones on a simulated host: when a program
// asks `nvidia-smi`, `rocm-smi`, ... for an argv the snapshot did not record, the
// shim hands it to the tool's emulator, which answers from the host's device model
// (the snapshot, and hwaccel's own detection replayed from it) in that tool's real
// format. Formats come from real captures; each emulator names its sources.
//
// An emulator never runs anything and reads nothing but what it is handed: it is
// a pure function of the host and the argv, so the same question gets the same bytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/registry/detection.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

// What an emulator answers from.
struct EmulatedHost {
  const Snapshot& snapshot;    // the recorded host (its recorded tool runs included)
  const Detection& detection;  // hwaccel detect, replayed from `snapshot`
};

// One answer: the bytes and the exit status the real tool would give.
struct ToolAnswer {
  std::string out;
  std::string err;
  int exit_code = 0;
};

// argv[0] is the tool's name as it was run; the rest are its arguments.
using ToolEmulator = ToolAnswer (*)(const EmulatedHost& host, const std::vector<std::string>& argv);

// The emulator of the tool called `name` ("nvidia-smi", "rocm-smi", ...; a path's
// last component counts), or nullptr where hwsim has none.
ToolEmulator find_tool_emulator(std::string_view name);

// Names of every emulated tool, sorted (docs, the conformance matrix).
std::vector<std::string> emulated_tool_names();

}  // namespace hwaccel::sim
