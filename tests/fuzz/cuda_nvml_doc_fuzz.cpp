// libFuzzer target: the document hwaccel-nvml prints (src/probe/cuda_nvml_doc.h)
// and its reading into the CUDA probe's shapes. Built only with HWACCEL_FUZZ=ON
// and clang; run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string>

#include "src/probe/cuda_nvml_path.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  hwaccel::ToolRun run;
  run.out.assign(reinterpret_cast<const char*>(data), size);
  auto doc = hwaccel::parse_nvml_document(run.out);
  if (doc.devices.size() > hwaccel::kMaxNvmlDevices) __builtin_trap();
  auto asked = hwaccel::read_nvml_run(run);
  if (asked.view && asked.view->query.gpus.empty()) __builtin_trap();
  return 0;
}
