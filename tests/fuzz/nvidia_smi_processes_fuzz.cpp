// libFuzzer target: a recorded `nvidia-smi --query-compute-apps` read for the
// simulated libnvidia-ml's and nvidia-smi stand-in's process lists
// (src/probe/nvidia_smi_processes.h). Built
// only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/nvidia_smi_processes.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto& [bus, list] : hwaccel::recorded_processes(text)) {
    if (bus.size() < 12 || bus.size() > 16 || list.empty() || list.size() > 4096) __builtin_trap();
    for (const auto& p : list)
      if (p.pid == 0 || p.name.size() > 1024 || (p.used_bytes && *p.used_bytes >= (1ull << 60)))
        __builtin_trap();
  }
  return 0;
}
