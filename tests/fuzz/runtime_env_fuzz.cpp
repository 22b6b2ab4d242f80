// libFuzzer target: runtime_env (/proc/1/cgroup and the cpuinfo hypervisor flag).
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/system/runtime_env.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)hwaccel::parse_proc1_cgroup(text);
  (void)hwaccel::cpuinfo_hypervisor_flag(text);
  return 0;
}
