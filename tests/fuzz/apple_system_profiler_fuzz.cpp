// libFuzzer target: system_profiler SPDisplaysDataType -json, sysctl values and
// the Asahi device-tree compatible list.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/apple_silicon.h"
#include "src/probe/apple_system_profiler.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto displays = hwaccel::parse_sp_displays_json(text);
  for (const auto& gpu : displays.gpus) (void)hwaccel::metal_compute_class(gpu.metal);
  (void)hwaccel::metal_family_text(text);
  if (auto v = hwaccel::parse_sysctl_u64(text)) (void)hwaccel::apple_working_set(*v, *v);
  std::string soc;
  (void)hwaccel::apple_soc_name(text, &soc);
  (void)hwaccel::is_apple_device_tree(text);
  (void)hwaccel::apple_neural_engine_cores(text);
  return 0;
}
