#pragma once

#include "sim/emulate/tool_emulator.h"

namespace hwaccel::sim {

// vulkaninfo: `--summary`, and bare `vulkaninfo` as a subset of its full text (the
// header and each GPU's VkPhysicalDeviceProperties, driver and ID properties). A
// host whose recorded run failed (no driver) answers every argv with that failure.
ToolAnswer emulate_vulkaninfo(const EmulatedHost& host, const std::vector<std::string>& argv);

}  // namespace hwaccel::sim
