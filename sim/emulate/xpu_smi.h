#pragma once

#include "sim/emulate/tool_emulator.h"

namespace hwaccel::sim {

// xpu-smi (Intel XPU Manager): `discovery` (the table, -d N for one device's
// properties, -j for JSON).
ToolAnswer emulate_xpu_smi(const EmulatedHost& host, const std::vector<std::string>& argv);

}  // namespace hwaccel::sim
