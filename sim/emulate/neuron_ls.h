#pragma once

#include "sim/emulate/tool_emulator.h"

namespace hwaccel::sim {

// neuron-ls (AWS Neuron): the table (instance type, device, cores, memory, connected
// devices, PCI BDF, CPU affinity, NUMA node), and --json-output / -j /
// --output-format json; without the driver: the tool's fatal discovery error.
ToolAnswer emulate_neuron_ls(const EmulatedHost& host, const std::vector<std::string>& argv);

}  // namespace hwaccel::sim
