// libFuzzer target: CUDA_VISIBLE_DEVICES and NVIDIA_VISIBLE_DEVICES.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/nvidia_visible_devices.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)hwaccel::parse_cuda_visible_devices(text);
  (void)hwaccel::parse_nvidia_visible_devices(text);
  return 0;
}
