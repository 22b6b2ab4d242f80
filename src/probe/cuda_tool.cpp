#include "src/probe/cuda_tool.h"

#include <algorithm>

#include "src/probe/cuda_probe.h"
#include "src/probe/nvidia_smi_errors.h"
#include "src/probe/tool_outcome.h"

namespace hwaccel {

Warning cuda_warning(std::string message) {
  return Warning{"cuda", std::move(message)};
}

std::string cuda_join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string joined;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) joined += separator;
    joined += parts[i];
  }
  return joined;
}

std::string cuda_tool_output(const ToolRun& run) {
  if (run.err.empty()) return run.out;
  return run.out + "\n" + run.err;
}

Reason cuda_run_reason(const ToolRun& run) {
  switch (run.outcome) {
    case ToolOutcome::not_found:
      return *reason_for_tool_outcome("nvidia-smi", run);  // says why a --root tree's was not run
    case ToolOutcome::timeout:
      return {ReasonCode::timeout, "nvidia-smi did not answer within the timeout"};
    case ToolOutcome::signal:
      return {ReasonCode::probe_failed,
              "nvidia-smi killed by signal " + std::to_string(run.signal)};
    case ToolOutcome::permission_denied:
      return cannot_run_reason("nvidia-smi", run);
    case ToolOutcome::exited:
      break;
  }
  if (could_not_execute(run)) return cannot_run_reason("nvidia-smi", run);
  return classify_nvidia_smi_failure(cuda_tool_output(run), run.exit_code);
}

std::string cuda_reason_text(const Reason& reason) {
  std::string text(to_string(reason.code));
  if (!reason.detail.empty()) text += ": " + reason.detail;
  return text;
}

ToolRun run_cuda_query(Host& host, ToolRun run, std::vector<std::string>& fields,
                       std::vector<Warning>& warnings) {
  const std::size_t max_retries = fields.size();
  for (std::size_t retry = 0; retry < max_retries; ++retry) {
    if (run.outcome != ToolOutcome::exited || run.exit_code == 0) break;
    bool dropped = false;
    for (const auto& field : rejected_query_fields(cuda_tool_output(run))) {
      auto at = std::find(fields.begin(), fields.end(), field);
      if (at == fields.end()) continue;
      fields.erase(at);
      dropped = true;
      warnings.push_back(cuda_warning("nvidia-smi rejected field \"" + field +
                                      "\" (old driver?); retried without it"));
    }
    if (!dropped || fields.empty()) break;
    run = host.run(cuda_query_argv(fields));
  }
  return run;
}

std::vector<std::string> cuda_query_argv(const std::vector<std::string>& fields) {
  return {std::string(kCudaTool), "--query-gpu=" + cuda_join(fields, ","), "--format=csv"};
}

std::vector<std::string> cuda_list_argv() {
  return {std::string(kCudaTool), "-L"};
}

std::vector<std::string> cuda_topology_argv() {
  return {std::string(kCudaTool), "topo", "-m"};
}

std::vector<std::string> cuda_q_argv() {
  return {std::string(kCudaTool), "-q"};
}

std::vector<std::string> cuda_addressing_mode_argv() {
  return {std::string(kCudaTool), "--query-gpu=pci.bus_id,addressing_mode", "--format=csv"};
}

}  // namespace hwaccel
