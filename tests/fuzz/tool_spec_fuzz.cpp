// libFuzzer target: parse_tool_spec (hwsim import --tool 'ARGV=FILE'), and that
// quoting what it split gives the same words back.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sim/tool_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto spec = hwaccel::sim::parse_tool_spec(text);
  if (spec.error.empty()) {
    std::string error;
    if (hwaccel::sim::split_words(hwaccel::sim::shell_join(spec.argv), error) != spec.argv)
      std::abort();
  }
  return 0;
}
