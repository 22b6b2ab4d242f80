// libFuzzer target: parse_instances (instances.toml, format hwaccel-instances/1),
// checked against the built-in SKU catalogue as `hwaccel plan cost` does.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "src/plan/instances.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto& catalogue = hwaccel::plan::builtin_catalogue();
  auto result = hwaccel::plan::parse_instances(text, "fuzz.toml", catalogue);
  if (!result.ok()) {
    if (result.error.rfind("fuzz.toml", 0) != 0) std::abort();  // located, always
    return 0;
  }
  for (const auto& i : result.instances)
    if (!catalogue.find(i.accelerator)) std::abort();  // an unknown SKU is an error
  return 0;
}
