#include "src/probe/tool_outcome.h"

#include "src/vocabulary/text_util.h"

namespace hwaccel {

std::optional<Reason> reason_for_tool_outcome(std::string_view tool, const ToolRun& run) {
  const std::string name(tool);
  switch (run.outcome) {
    case ToolOutcome::not_found: {
      // Under --root a tool the tree lacks is not run; the door says why.
      const std::string said = first_meaningful_line(run.err, 300);
      if (said.find(": not run: ") != std::string::npos)
        return Reason{ReasonCode::tool_not_found, said};
      return Reason{ReasonCode::tool_not_found, name + " not found on PATH"};
    }
    case ToolOutcome::timeout:
      return Reason{ReasonCode::timeout, name + " did not answer within the timeout"};
    case ToolOutcome::signal:
      return Reason{ReasonCode::probe_failed,
                    name + " killed by signal " + std::to_string(run.signal)};
    case ToolOutcome::permission_denied:
      return cannot_run_reason(tool, run);
    case ToolOutcome::exited:
      break;
  }
  if (could_not_execute(run)) return cannot_run_reason(tool, run);
  return std::nullopt;
}

bool could_not_execute(const ToolRun& run) {
  return run.outcome == ToolOutcome::exited && run.exit_code == 126 &&
         run.err.rfind("found at ", 0) == 0;
}

Reason cannot_run_reason(std::string_view tool, const ToolRun& run) {
  const std::string name(tool);
  const ReasonCode code = run.outcome == ToolOutcome::permission_denied
                              ? ReasonCode::permission_denied
                              : ReasonCode::probe_failed;
  const std::string said = first_meaningful_line(run.err, 300);
  if (said.rfind("found at ", 0) == 0) return Reason{code, name + " " + said};
  return Reason{code, name + " may not be run by this user"};
}

std::string combined_output(const ToolRun& run) {
  if (run.err.empty()) return run.out;
  if (run.out.empty()) return run.err;
  return run.out + "\n" + run.err;
}

}  // namespace hwaccel
