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

// stdout and stderr together, for tools that print errors on either.
std::string combined_output(const ToolRun& run);

}  // namespace hwaccel
