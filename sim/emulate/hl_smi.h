#pragma once

#include "sim/emulate/tool_emulator.h"

namespace hwaccel::sim {

// hl-smi (Intel Gaudi): the bare table, and `-Q field,... -f csv[,noheader][,nounits]`
// (also --query-aip= / --format=) in the nvidia-smi CSV dialect hl-smi uses.
ToolAnswer emulate_hl_smi(const EmulatedHost& host, const std::vector<std::string>& argv);

}  // namespace hwaccel::sim
