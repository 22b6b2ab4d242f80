// The kernel plan of one model on one device: the class chain, which kernels
// exist (and why not), how each format executes, the fused decode step with
// its gaps, the tensor-core audit, roofline estimates and the footprint.
// Pure computation over a parsed KernelTree: no I/O.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/kernels/availability.h"
#include "src/kernels/classes.h"
#include "src/kernels/formats.h"
#include "src/kernels/tree.h"
#include "src/plan/footprint.h"
#include "src/plan/model_spec.h"
#include "src/plan/quant.h"

namespace hwaccel::kernels {

struct KernelRequest {
  std::string device;  // a DEVICES.toml id
  plan::ModelSpec spec;
  plan::QuantLevel quant;
  plan::Workload workload;  // context for decode, KV format
};

// One op of the decode step (a layer's ops repeat `repeat` times).
struct PlanNode {
  std::string name;  // qkv_proj
  std::string op;    // gemm
  int repeat = 1;
  std::string format;       // the weight format of a gemm ("" for other ops)
  std::string runs_as;      // compute format of a gemm ("" when unsupported)
  double weight_bytes = 0;  // per instance
  double bytes = 0;         // per instance, weights + activations/KV
  double flops = 0;         // per instance
  double seconds = 0;       // per instance: max(bytes / bandwidth, flops / peak)
  std::string bound;        // memory | compute
  std::string rule;         // the fusion rule covering it ("" for a gap)
  int rule_span = 0;        // how many ops the rule covers from here (0: continues a rule)
  std::vector<std::string> kernels;
  std::string gap;  // why no available kernel covers it
};

struct RuleKernel {
  std::string kernel;
  std::vector<std::string> rules;  // the rules that name it
  std::string family;
  Availability availability;
};

struct Violation {
  std::string node;
  std::string op;
  std::string rule;
  std::string kernels;  // the kernels that run it, with their families
};

struct KernelPlan {
  std::string device;
  std::string device_name;
  std::string target;
  std::vector<std::string> instructions;
  std::vector<std::string> errors;  // flag contradictions: the plan stops there
  std::optional<ResolvedClass> cls;
  std::string model;
  std::string shape;
  std::string quant;
  plan::Workload workload;
  std::vector<RuleKernel> kernels;  // by name
  std::vector<FormatExecution> formats;
  std::vector<PlanNode> nodes;
  double step_roofline_s = 0;  // sum of the nodes
  double covered_s = 0;        // of it, covered by available kernels
  std::vector<Violation> violations;
  std::vector<std::string> exempted;  // "lm_head: why"
  // Estimates (src/plan/estimate.cpp, with the perf class's efficiencies).
  bool estimated = false;
  std::string estimate_missing;
  double decode_s = 0;  // C=1 at workload.context
  double prefill_4k_s = 0;
  double prefill_32k_s = 0;
  double weight_bytes_step = 0;  // sum over the nodes
  double bandwidth = 0;
  std::string perf_class;
  double decode_efficiency = 0;
  double prefill_efficiency = 0;
  plan::Footprint footprint;
  double memory = 0;
  double usable_fraction = 0;
  double capacity = 0;  // memory x usable fraction
  bool fits() const { return footprint.total() <= capacity; }
  std::vector<std::string> fits_on;  // "h200-sxm (141.0 GB x 0.90)"
  bool has_gaps() const {
    for (const auto& n : nodes)
      if (n.rule.empty()) return true;
    return false;
  }
  bool ok() const { return errors.empty() && violations.empty() && !has_gaps(); }
};

struct KernelPlanResult {
  std::optional<KernelPlan> plan;
  std::string error;  // unknown device (lists the known ids), no class, a class cycle
};

KernelPlanResult make_kernel_plan(const KernelTree& tree, const KernelRequest& request);

// The op sequence of one decode step (names, kinds), before any matching.
std::vector<PlanNode> decode_nodes(const plan::ModelSpec& spec, const plan::QuantLevel& quant,
                                   const plan::Workload& workload,
                                   const std::vector<FormatPair>& pairs);

}  // namespace hwaccel::kernels
