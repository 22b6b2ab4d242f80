// macOS's own tools on a simulated Mac: `system_profiler` (SPDisplaysDataType and
// SPHardwareDataType, text and -json) and `sysctl` (-n, NAME..., the hw./machdep./
// kern. names programs ask), from the snapshot's Apple facts.
#pragma once

#include "sim/emulate/tool_emulator.h"

namespace hwaccel::sim {

ToolAnswer emulate_system_profiler(const EmulatedHost& host, const std::vector<std::string>& argv);
ToolAnswer emulate_sysctl(const EmulatedHost& host, const std::vector<std::string>& argv);

}  // namespace hwaccel::sim
