// libFuzzer target: `nvidia-smi -q` (or -a) read as a list of GPUs, the way the
// CUDA probe reads it where no query was recorded: the parser (driver lines, each
// GPU's name, UUID, FB memory, MIG mode and MIG devices) and its query rows.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/cuda_q_only.h"
#include "src/probe/nvidia_smi_q.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto q = hwaccel::parse_nvidia_smi_q(text);
  const auto rows = hwaccel::query_rows_from_q(q);
  if (rows.gpus.size() != q.gpus.size()) __builtin_trap();  // one row per GPU, always
  return 0;
}
