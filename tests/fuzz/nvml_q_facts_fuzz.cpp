// libFuzzer target: `nvidia-smi -q` read for the simulated libnvidia-ml's per-GPU
// facts (nvml/nvml_q_facts.h). Built only with HWACCEL_FUZZ=ON and clang
// (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nvml/nvml_q_facts.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto report = hwaccel::nvml::parse_q_facts(text);
  for (const auto& [bus, facts] : report.by_bus)
    if (bus.empty() || facts.serial.size() >= 30) __builtin_trap();
  return 0;
}
