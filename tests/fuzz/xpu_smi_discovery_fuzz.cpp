// libFuzzer target: xpu-smi discovery tables.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/xpu_smi_discovery.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto discovery = hwaccel::parse_xpu_smi_discovery(text);
  for (const auto& d : discovery.devices) (void)hwaccel::without_trademarks(d.name);
  (void)hwaccel::without_trademarks(text);
  return 0;
}
