// Speed estimates from the roofline: decode is bound by the bytes each token
// reads (weights + KV) over memory bandwidth, prefill by FLOPs over the dense
// peak; both scaled by a per-class efficiency fitted on measured results
// (tests/bench/estimates), plus the tensor-parallel all-reduces over the link.
#pragma once

#include <optional>
#include <string>

#include "src/plan/catalogue.h"
#include "src/plan/sharding.h"

namespace hwaccel::plan {

inline constexpr double kFastLinkLatency = 8e-6;   // per all-reduce on NVLink/xGMI
inline constexpr double kSlowLinkLatency = 20e-6;  // per hop over PCIe / host memory

struct Estimate {
  bool available = false;
  std::string missing;        // why not: "cuda:1 NVIDIA Foo: unknown device"
  double decode_tok_s_1 = 0;  // batch 1
  double decode_tok_s_b = 0;  // batch B (all sequences together)
  int batch = 1;
  double prefill_tok_s_4k = 0;
  double prefill_tok_s_32k = 0;
  int prompt = 0;  // --prompt given: prefill at that length too
  double prefill_tok_s_prompt = 0;
  int decode_context = 0;       // the KV length the decode figures are at
  double bytes_per_token = 0;   // batch 1, the slowest path summed over stages
  double comm_s_per_token = 0;  // batch 1, all-reduces and stage hops
  std::string bound_1;          // "memory" | "compute" at batch 1 (first stage)
};

// The arithmetic of one step, summed over every device of the plan (for the
// roofline picture: intensity = flops / bytes).
struct StepWork {
  double flops = 0;
  double bytes = 0;         // memory traffic: weights, KV cache
  double comm_seconds = 0;  // on the path: tensor-parallel all-reduces, pipeline hops
};

// Seconds for one decode step of `batch` sequences at `context` tokens.
std::optional<double> decode_step_seconds(const Plan& plan, const ModelCost& cost,
                                          const DeviceSet& set, const Catalogue& catalogue,
                                          int batch, int context, std::string* missing = nullptr,
                                          StepWork* work = nullptr);
// Seconds to prefill `tokens` tokens of one sequence.
std::optional<double> prefill_seconds(const Plan& plan, const ModelCost& cost, const DeviceSet& set,
                                      const Catalogue& catalogue, int tokens,
                                      StepWork* work = nullptr);

Estimate estimate(const Plan& plan, const ModelCost& cost, const DeviceSet& set,
                  const Catalogue& catalogue, int batch);

// FLOPs of attention (QK^T and PV) over a causal prefill of `tokens`, all layers.
double attention_flops(const ModelSpec& spec, int tokens);

}  // namespace hwaccel::plan
