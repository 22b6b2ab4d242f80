// libFuzzer target: pcie_link (sysfs current_link_speed / current_link_width).
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/system/pcie_link.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)hwaccel::parse_pcie_link_speed(text);
  (void)hwaccel::parse_pcie_link_width(text);
  return 0;
}
