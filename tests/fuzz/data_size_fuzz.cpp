// libFuzzer target: data_size (hwaccel io --dataset sizes).
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/system/io_estimate.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)hwaccel::parse_data_size(text);
  return 0;
}
