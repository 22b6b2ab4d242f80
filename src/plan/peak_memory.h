// Peak memory where a runtime has one beyond what it holds while serving
// (docs/planning.md, "Peak memory per runtime"):
//  - TensorRT-LLM builds an engine first (trtllm-build). TensorRT's builder
//    needs device buffers for the weights of the layers it times, and writes
//    the engine, whose bulk is the weights, into a GPU buffer of its own
//    (globWriter makeResizableGpuMemory: NVIDIA/TensorRT-LLM issues 346 and
//    772 fail there asking for about the engine's weight bytes); NVIDIA's
//    Torch-TensorRT resource guide gives "up to 2x the model size in GPU
//    memory" for the same builder. So a build peaks at about twice the
//    weights a device will hold, plus the CUDA context: a plan whose runtime
//    fits but whose build does not is refused, and said to be limited by it.
//  - vLLM takes gpu_memory_utilization (default 0.9) of each GPU's total
//    memory and fills what the weights, the profiled activations and its CUDA
//    graphs leave with KV cache: the plan budgets that share.
#pragma once

#include <string>
#include <string_view>

#include "src/plan/devices.h"

namespace hwaccel::plan {

// vLLM's default --gpu-memory-utilization from vLLM 0.2 (PR 2162 documents
// it) through the 0.1x releases the calibration's vLLM rows ran; vLLM's main
// branch raised it to 0.92 in 2026 (PR 38284).
inline constexpr double kVllmGpuMemoryUtilization = 0.90;

// Bytes an engine build holds on one device whose engine carries `weights`
// bytes (0 for a runtime without a build step, and on a CPU).
double engine_build_bytes(std::string_view runtime, double weights, double overhead, bool cpu);

// Whether the runtime builds an engine before it serves (TensorRT-LLM).
bool builds_engine(std::string_view runtime);

// The bytes vLLM budgets on an accelerator: its utilisation share of the
// total, less whatever of it the reserve must keep free (the free memory
// when detected, else the total, less the reserve), at least 0.
double vllm_budget(const PlanDevice& d);

// The note said when vLLM's budget is used.
std::string vllm_budget_note();

}  // namespace hwaccel::plan
