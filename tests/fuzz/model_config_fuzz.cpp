// libFuzzer target: parse_hf_config (hwaccel plan --model config.json, a Hugging
// Face config), the parameter count and shape line of a config that loaded, and
// the --params syntax ("70B").
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "src/plan/model_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto result = hwaccel::plan::parse_hf_config(text, "config.json");
  if (result.spec) {
    auto counts = hwaccel::plan::count_params(*result.spec);
    (void)counts.total();
    (void)counts.active();
    (void)hwaccel::plan::describe_shape(*result.spec);
  } else if (result.error.rfind("config.json", 0) != 0) {
    std::abort();  // errors name the file
  }
  auto params = hwaccel::plan::model_from_params(text);
  if (params.spec) (void)hwaccel::plan::count_params(*params.spec);
  return 0;
}
