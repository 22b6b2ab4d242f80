#include "sim/emulate/tool_emulator.h"

#include <algorithm>
#include <utility>

#include "sim/emulate/amd_smi.h"
#include "sim/emulate/apple_tools.h"
#include "sim/emulate/hl_smi.h"
#include "sim/emulate/neuron_ls.h"
#include "sim/emulate/nvidia_smi.h"
#include "sim/emulate/rocm_smi.h"
#include "sim/emulate/rocminfo.h"
#include "sim/emulate/systemd_detect_virt.h"
#include "sim/emulate/vulkaninfo.h"
#include "sim/emulate/xpu_smi.h"

namespace hwaccel::sim {

namespace {

// One line per emulated tool: its name as programs run it, and its emulator
// (declared in the tool's own header under sim/emulate/).
const std::vector<std::pair<std::string_view, ToolEmulator>>& emulators() {
  static const std::vector<std::pair<std::string_view, ToolEmulator>> table = {
      {"amd-smi", emulate_amd_smi},
      {"hl-smi", emulate_hl_smi},
      {"neuron-ls", emulate_neuron_ls},
      {"nvidia-smi", emulate_nvidia_smi},
      {"rocm-smi", emulate_rocm_smi},
      {"rocminfo", emulate_rocminfo},
      {"sysctl", emulate_sysctl},
      {"system_profiler", emulate_system_profiler},
      {"systemd-detect-virt", emulate_systemd_detect_virt},
      {"vulkaninfo", emulate_vulkaninfo},
      {"xpu-smi", emulate_xpu_smi},
  };
  return table;
}

}  // namespace

ToolEmulator find_tool_emulator(std::string_view name) {
  if (auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  for (const auto& [tool, emulator] : emulators())
    if (tool == name) return emulator;
  return nullptr;
}

std::vector<std::string> emulated_tool_names() {
  std::vector<std::string> names;
  for (const auto& entry : emulators()) names.emplace_back(entry.first);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace hwaccel::sim
