// libFuzzer target: nvidia-smi -L (GPUs and MIG devices), the MIG profile sizes, and
// the other per-GPU text reports the probe reads: -q (MIG memory, addressing mode) and
// nvlink -s (one target: the same indented "GPU ..." blocks).
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/nvidia_smi_list.h"
#include "src/probe/nvidia_smi_nvlink.h"
#include "src/probe/nvidia_smi_q.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto list = hwaccel::parse_nvidia_smi_list(text);
  for (const auto& gpu : list.gpus)
    for (const auto& mig : gpu.mig_devices) (void)hwaccel::mig_profile_memory_bytes(mig.profile);
  (void)hwaccel::mig_profile_memory_bytes(text);
  (void)hwaccel::parse_nvidia_smi_q(text);
  (void)hwaccel::parse_nvidia_smi_nvlink(text);
  return 0;
}
