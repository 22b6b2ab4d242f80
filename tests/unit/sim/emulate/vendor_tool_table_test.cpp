// The table knows every vendor tool by name and by path.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/emulate/tool_emulator.h"

namespace hwaccel::sim {
namespace {

TEST(VendorToolTable, EveryVendorToolIsFoundByNameAndByPath) {
  const auto names = emulated_tool_names();
  for (const char* tool :
       {"rocm-smi", "amd-smi", "rocminfo", "hl-smi", "neuron-ls", "xpu-smi", "vulkaninfo"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), tool), names.end()) << tool;
    EXPECT_NE(find_tool_emulator(tool), nullptr) << tool;
    EXPECT_EQ(find_tool_emulator(std::string("/opt/rocm/bin/") + tool), find_tool_emulator(tool));
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

}  // namespace
}  // namespace hwaccel::sim
