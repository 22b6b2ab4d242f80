// libFuzzer target: nvidia-smi's MIG listings: the bare table's "MIG devices:"
// block, `nvidia-smi mig -lgip` and `nvidia-smi mig -lgi`.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/nvidia_smi_mig.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)hwaccel::parse_nvidia_smi_table_mig(text);
  (void)hwaccel::parse_nvidia_smi_mig_lgip(text);
  (void)hwaccel::parse_nvidia_smi_mig_lgi(text);
  return 0;
}
