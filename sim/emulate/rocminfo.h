#pragma once

#include "sim/emulate/tool_emulator.h"

namespace hwaccel::sim {

// rocminfo: the HSA system attributes and one agent per KFD CPU node and per AMD
// GPU (Name gfxNNN, Uuid, Marketing Name, Node, Compute Unit, the global memory
// pool's size); without amdgpu: "ROCk module is NOT loaded", exit 1.
ToolAnswer emulate_rocminfo(const EmulatedHost& host, const std::vector<std::string>& argv);

}  // namespace hwaccel::sim
