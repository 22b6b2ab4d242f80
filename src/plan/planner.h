// The plan for one request: footprint, every candidate sharding, the chosen
// one with its reason, the quantisation that would fit, and where it fits.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/plan/estimate.h"
#include "src/plan/sharding.h"

namespace hwaccel::plan {

struct PlanRequest {
  ModelSpec spec;
  QuantLevel quant;
  Workload workload;
  int decode_batch = 32;  // the "batch B" estimate
  // --runtime (llama.cpp, vllm, sglang, trt-llm, mlx); empty: assumed from the
  // level and the first accelerator (runtime.h), and said so.
  std::string runtime;
  // --quant as typed (llama.cpp's "F16" says llama.cpp); empty: not given.
  std::string quant_typed;
};

struct Candidate {
  Plan plan;
  Estimate estimate;
};

struct QuantFit {
  std::string quant;
  double needs = 0;  // footprint total
  std::string plan;  // the plan that would be chosen
  double decode_tok_s = 0;
};

struct PlanResult {
  ModelCost cost;
  std::vector<Candidate> candidates;
  std::optional<std::size_t> chosen;
  std::string why;                   // one line
  double needs = 0;                  // footprint total (one copy of everything)
  double has = 0;                    // sum of the capacities the plans could use
  std::vector<QuantFit> quant_fits;  // best first; [0] is the suggestion
  std::vector<std::string> fits_on;  // "h200-sxm x1" (when it does not fit here)
  std::vector<std::string> notes;    // devices refused for the format, with the reason
  std::string runtime;               // the runtime the estimates are priced for
  std::string runtime_why;           // "--runtime", or why it was assumed ("GGUF file")
  bool runtime_assumed = false;      // not named with --runtime
  // "runtime: llama.cpp (assumed: GGUF quantisation q4_k_m)": the report's line.
  std::string runtime_line() const;
  // Where each device's efficiencies come from (by device index; empty for an
  // unknown one): "the vllm profile for nvidia-datacenter" or "the cpu perf class".
  std::vector<std::string> efficiencies;
  bool fits() const { return chosen.has_value(); }
  // No plan fits, but one would serve were it not for its engine build
  // (TensorRT-LLM's trtllm-build peak, src/plan/peak_memory.h): `why` says so.
  bool build_limited = false;
  // No plan fits, but one would with llama.cpp's compute buffer left out
  // (src/plan/peak_memory.h): `why` names the buffer.
  bool compute_limited = false;
  // The capacity each device had in this plan (by device index): vLLM budgets
  // its gpu_memory_utilization share ("vllm" in budget_rule), others the
  // device's usable memory.
  std::vector<double> capacities;
  std::string budget_rule;
  double budget_share = 0;  // vLLM's share where budget_rule is "vllm"
};

// `with_alternatives`: also compute the quantisation suggestions and the
// catalogue SKUs it fits on (skipped inside those computations).
PlanResult make_plan(const PlanRequest& request, const DeviceSet& set, const Catalogue& catalogue,
                     bool with_alternatives = true);

// The smallest count (1, 2, 4, 8) of `sku` on which the request fits; 0: none.
int fits_on_count(const PlanRequest& request, const Sku& sku, const Catalogue& catalogue);

}  // namespace hwaccel::plan
