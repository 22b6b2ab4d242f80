// `hwsim emulate TREE NAME -- ARGS...` (hidden): what a simulated host's tool shim
// runs for an argv the snapshot did not record. Reads TREE/.hwsim/snapshot.yaml,
// replays hwaccel's detection on it, prints the tool emulator's answer
// (sim/emulate/tool_emulator.h) with its exit status, and appends one line to
// TREE/.hwsim/synthesised. Nothing from the snapshot is run.
#pragma once

#include <string>
#include <vector>

namespace hwaccel::cli {

// `args`: what follows "emulate" on the command line.
int run_emulate(const std::vector<std::string>& args);

}  // namespace hwaccel::cli
