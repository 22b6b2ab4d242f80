// libFuzzer target: /opt/qti-aic/tools/qaic-util -q (Qualcomm Cloud AI) and its sizes.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/qaic_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)hwaccel::parse_qaic_util(text);
  (void)hwaccel::parse_qaic_size(text);
  return 0;
}
