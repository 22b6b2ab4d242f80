// libFuzzer target: classifying nvidia-smi failure texts and rejected query fields.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/nvidia_smi_errors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // The exit code rides on the first byte so that both halves get explored.
  int exit_code = text.empty() ? 0 : static_cast<unsigned char>(text.front());
  (void)hwaccel::known_nvidia_smi_error(text);
  (void)hwaccel::classify_nvidia_smi_failure(text, exit_code);
  (void)hwaccel::rejected_query_fields(text);
  return 0;
}
