#pragma once

#include "sim/emulate/tool_emulator.h"

namespace hwaccel::sim {

// rocm-smi: the concise table, --showproductname, --showmeminfo vram|all,
// --showbus, --showid, --showuniqueid, --showserial, --showdriverversion, -d N...,
// and --json with any of them. Without amdgpu: the tool's own driver error.
ToolAnswer emulate_rocm_smi(const EmulatedHost& host, const std::vector<std::string>& argv);

}  // namespace hwaccel::sim
