// Where a simulated host's tree gets its tool emulator: the program at
// /.hwsim/emu (hwsim itself, run as `emu emulate TREE NAME -- ARGS`) and the log
// of synthesised answers at /.hwsim/synthesised (sim/shim_script.h).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "src/host/tree_writer.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

// Whether any tool the snapshot records has an emulator (a shim hands it argvs),
// or unrecorded_emulated_tools() names one.
bool has_emulated_tools(const Snapshot& snapshot);

// Emulated tools the snapshot never ran (by name or path) whose vendor's devices
// the host has (rocm-smi, amd-smi and rocminfo where the rocm backend lists a
// GPU, hl-smi for gaudi, ...): the vendor installs them with the driver, and the
// rocm probe, for one, reads sysfs and never asks them. They get a shim that
// answers every argv from the device model. A tool the snapshot records as not
// found is not among them: it stays not found. On a Linux host also
// systemd-detect-virt, which every such host has and which would otherwise ask
// this machine's CPU.
std::set<std::string> unrecorded_emulated_tools(const Snapshot& snapshot);

// Adds the emulator to `plan`: a link to `program` (a tree read in place), or an
// empty executable file that `hwsim run` binds `program` over (`link` false);
// and the empty log. Nothing when `program` is "".
void plan_emulator(TreePlan& plan, const std::string& program, bool link);

// "synthesised: nvidia-smi '-q' (from the device model)" lines of a log's text.
std::vector<std::string> synthesised_lines(const std::string& log);

}  // namespace hwaccel::sim
