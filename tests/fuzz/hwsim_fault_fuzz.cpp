// libFuzzer target: parse_fault (hwsim mutate --fault KIND:TARGET[=ARG]). A fault
// parses to a kind and a target, or to an error that says what was expected.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "sim/fault.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  auto fault = hwaccel::sim::parse_fault(text, error);
  if (fault) {
    if (fault->target.empty()) std::abort();  // KIND: alone is refused
    // The kind's own name reads back as the same kind.
    if (hwaccel::sim::fault_kind_from_string(hwaccel::sim::to_string(fault->kind)) != fault->kind)
      std::abort();
  } else if (error.empty()) {
    std::abort();  // a refusal always says why
  }
  (void)hwaccel::sim::fault_kind_from_string(text);
  return 0;
}
