// libFuzzer target: /proc/driver/nvidia/gpus/<bus>/information and numa_status,
// and the NUMA node's meminfo they lead to (one target: the same line shapes).
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/gpu_numa_memory.h"
#include "src/probe/nvidia_gpu_information.h"
#include "src/probe/nvidia_kernel_gpus.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)hwaccel::parse_nvidia_gpu_information(text);
  (void)hwaccel::parse_nvidia_numa_status(text);
  (void)hwaccel::parse_node_meminfo(text);
  return 0;
}
