#pragma once

#include "sim/emulate/tool_emulator.h"

namespace hwaccel::sim {

// amd-smi: `list` and `static` (all of it, or --asic/--bus/--driver/--vram/--numa),
// each with --json and -g N...; without amdgpu: the tool's own init errors.
ToolAnswer emulate_amd_smi(const EmulatedHost& host, const std::vector<std::string>& argv);

}  // namespace hwaccel::sim
