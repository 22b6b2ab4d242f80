#include "src/probe/tool_outcome.h"

namespace hwaccel {

std::optional<Reason> reason_for_tool_outcome(std::string_view tool, const ToolRun& run) {
  const std::string name(tool);
  switch (run.outcome) {
    case ToolOutcome::not_found:
      return Reason{ReasonCode::tool_not_found, name + " not found on PATH"};
    case ToolOutcome::timeout:
      return Reason{ReasonCode::timeout, name + " did not answer within the timeout"};
    case ToolOutcome::signal:
      return Reason{ReasonCode::probe_failed,
                    name + " killed by signal " + std::to_string(run.signal)};
    case ToolOutcome::permission_denied:
      return Reason{ReasonCode::permission_denied, name + " may not be run by this user"};
    case ToolOutcome::exited:
      break;
  }
  return std::nullopt;
}

std::string combined_output(const ToolRun& run) {
  if (run.err.empty()) return run.out;
  if (run.out.empty()) return run.err;
  return run.out + "\n" + run.err;
}

}  // namespace hwaccel
