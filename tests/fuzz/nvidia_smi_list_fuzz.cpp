// libFuzzer target: nvidia-smi -L (GPUs and MIG devices) and the MIG profile sizes.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/nvidia_smi_list.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto list = hwaccel::parse_nvidia_smi_list(text);
  for (const auto& gpu : list.gpus)
    for (const auto& mig : gpu.mig_devices) (void)hwaccel::mig_profile_memory_bytes(mig.profile);
  (void)hwaccel::mig_profile_memory_bytes(text);
  return 0;
}
