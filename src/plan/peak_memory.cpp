#include "src/plan/peak_memory.h"

#include <algorithm>
#include <cstdio>

namespace hwaccel::plan {

bool builds_engine(std::string_view runtime) {
  return runtime == "trt-llm";
}

double engine_build_bytes(std::string_view runtime, double weights, double overhead, bool cpu) {
  if (cpu || !builds_engine(runtime)) return 0;
  // The checkpoint's weights the builder times with, and the engine it
  // writes (about the same bytes), at once; plus the CUDA context. Tactic
  // workspace is not counted: TensorRT skips a tactic it has no memory for.
  return 2 * weights + overhead;
}

double vllm_budget(const PlanDevice& d) {
  double share = d.total_bytes * kVllmGpuMemoryUtilization;
  double may_take = (d.free_bytes ? *d.free_bytes : d.total_bytes) - d.reserve_bytes;
  return std::max(0.0, std::min(share, may_take));
}

std::string vllm_budget_note() {
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "vLLM takes %.2f of each GPU's memory (gpu_memory_utilization, its default) and "
                "fills what the weights, activations and CUDA graphs leave with KV cache: the "
                "plan budgets that share, less any of it the reserve keeps free",
                kVllmGpuMemoryUtilization);
  return buf;
}

}  // namespace hwaccel::plan
