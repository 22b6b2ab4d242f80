// How the CUDA probe runs nvidia-smi and reads a run that failed: the shared
// pieces of the probe's steps (cuda_probe.h lists them).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"
#include "src/probe/probe.h"

namespace hwaccel {

inline constexpr std::string_view kCudaTool = "nvidia-smi";
inline constexpr std::uint16_t kCudaPciVendor = 0x10de;

Warning cuda_warning(std::string message);

std::string cuda_join(const std::vector<std::string>& parts, std::string_view separator);

// stdout, then stderr: nvidia-smi writes its complaints to stdout.
std::string cuda_tool_output(const ToolRun& run);

// Why a run that did not succeed gave us no table.
Reason cuda_run_reason(const ToolRun& run);

// "code: detail", for warnings.
std::string cuda_reason_text(const Reason& reason);

// The --query-gpu query's answer, given its first run (`run`, of the full
// list); when an old driver rejects fields, drops them and asks again, once per
// field at most. `fields` ends as the list of the last run.
ToolRun run_cuda_query(Host& host, ToolRun run, std::vector<std::string>& fields,
                       std::vector<Warning>& warnings);

}  // namespace hwaccel
