// libFuzzer target: parse_spec (hwsim synth SPEC.yaml, format hwsim-spec/1) and the
// size syntax it uses. A spec is written by a user: any text must end in a spec or
// a located error, never a crash, a hang or unbounded memory.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sim/spec_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  hwaccel::sim::HostSpec spec;
  auto error = hwaccel::sim::parse_spec(text, "fuzz.yaml", spec);
  // An error always says where it is and what was wrong.
  if (error && (error->message.empty() || error->to_string().rfind("fuzz.yaml", 0) != 0))
    std::abort();
  (void)hwaccel::sim::parse_spec_size(text);
  return 0;
}
