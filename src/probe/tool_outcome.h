// How a tool run that did not exit on its own (not on PATH, timed out, killed,
// not executable) becomes a Reason; shared by the probes that run one tool.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "src/host/host.h"
#include "src/model/reason.h"

namespace hwaccel {

// nullopt when the tool exited (whatever its status): the caller reads its output.
std::optional<Reason> reason_for_tool_outcome(std::string_view tool, const ToolRun& run);

// A run of a tool that is there and that the system would not start: exit 126 with
// the process runner's "found at PATH and cannot execute: WHY" (its loader or
// interpreter is missing, a format this machine does not run).
bool could_not_execute(const ToolRun& run);

// The reason for such a run or a permission_denied one: "NAME found at PATH and
// cannot execute: WHY", from the run's err; a permission_denied err that does not
// say so (an older snapshot, a shim) gives "NAME may not be run by this user".
// Never "not found".
Reason cannot_run_reason(std::string_view tool, const ToolRun& run);

// stdout and stderr together, for tools that print errors on either.
std::string combined_output(const ToolRun& run);

}  // namespace hwaccel
