// libFuzzer target: the KFD topology node and memory bank properties.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/amdgpu_kfd_topology.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto node = hwaccel::parse_kfd_node_properties(text);
  if (node.gfx_target_version) (void)hwaccel::gfx_target_name(*node.gfx_target_version);
  (void)hwaccel::parse_kfd_mem_bank_size(text);
  return 0;
}
